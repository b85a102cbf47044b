/* main.c — command line entry point (placeholder until the CLI lands). */
#include <stdio.h>
int main(void)
{
	puts("stwtop " STWTOP_VERSION);
	return 0;
}
