/* SPDX-License-Identifier: GPL-2.0-or-later */
// Leak.java: keeps half of what it allocates (64 KiB byte[] at ~MIBPS MiB/s), so every young
// collection promotes into the old generation and touches pages the process never used before.
// In a memory cgroup smaller than the heap, one of those collections meets the cgroup's limit.
import java.util.ArrayList;
import java.util.List;

public class Leak {
    public static void main(String[] args) throws Exception {
        int mibps = args.length > 0 ? Integer.parseInt(args[0]) : 40;
        List<byte[]> kept = new ArrayList<>();
        long t0 = System.currentTimeMillis();
        System.out.println(t0 + " start pid=" + ProcessHandle.current().pid() + " MiBps=" + mibps);
        long n = 0;
        while (true) {
            byte[] b = new byte[64 * 1024];
            b[0] = (byte) n;
            if ((n & 1) == 0)
                kept.add(b);
            n++;
            // pace: 16 blocks of 64 KiB = 1 MiB
            if ((n & 15) == 0) {
                long due = t0 + (n / 16) * 1000 / mibps;
                long d = due - System.currentTimeMillis();
                if (d > 0)
                    Thread.sleep(d);
            }
            if ((n & 1023) == 0)
                System.out.println(System.currentTimeMillis() + " allocated_MiB=" + n / 16 + " kept=" + kept.size());
        }
    }
}
