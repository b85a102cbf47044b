# SPDX-License-Identifier: GPL-2.0-or-later
# Compiles small files into the binary as byte arrays, so a copied-in static binary
# needs nothing else: the default theme and a fallback terminfo entry (xterm-256color).
# Each file F becomes `const unsigned char NAME[]` and `const size_t NAME_len` in gen/.
set(STWTOP_EMBED_SOURCES "")
function(stwtop_embed name path)
  if(NOT EXISTS "${path}")
    message(STATUS "embed: ${path} not found, ${name} left empty")
    set(hex "")
  else()
    file(READ "${path}" hex HEX)
  endif()
  string(LENGTH "${hex}" hexlen)
  math(EXPR n "${hexlen} / 2")
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," body "${hex}")
  set(out "${PROJECT_BINARY_DIR}/gen/embed_${name}.c")
  file(WRITE "${out}.tmp"
    "/* generated from ${path} by cmake/embed.cmake */\n#include <stddef.h>\n"
    "const unsigned char ${name}[] = {${body}0x00};\nconst size_t ${name}_len = ${n};\n")
  configure_file("${out}.tmp" "${out}" COPYONLY)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${path}")
  set(STWTOP_EMBED_SOURCES ${STWTOP_EMBED_SOURCES} "${out}" PARENT_SCOPE)
endfunction()

stwtop_embed(embed_theme_default "${PROJECT_SOURCE_DIR}/themes/default.json")
# Debian's ncurses-base installs this compiled entry; it is what a pod without terminfo lacks.
find_file(STWTOP_XTERM256_TERMINFO xterm-256color
  PATHS /lib/terminfo/x /usr/share/terminfo/x /etc/terminfo/x NO_DEFAULT_PATH)
stwtop_embed(embed_terminfo_xterm256 "${STWTOP_XTERM256_TERMINFO}")
