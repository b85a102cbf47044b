/* SPDX-License-Identifier: GPL-2.0-or-later */
// IdleAfterPeak: a G1 heap that grows under an allocation peak and then sits
// idle. Phase 1 (6 s): allocate 128 KiB blocks (below half a region, so not
// humongous) as fast as possible, keeping only the newest 400 (50 MiB live):
// G1 expands the heap for the allocation rate. Phase 2: allocate nothing for
// IDLE_S seconds: no GC runs, the committed heap stays where the peak left it.
// Phase 3 (2 s): light allocation of 64 KiB blocks again, then exit.
import java.util.ArrayDeque;

public class IdleAfterPeak {
    public static void main(String[] args) throws Exception {
        int idleS = Integer.parseInt(args.length > 0 ? args[0] : "40");
        ArrayDeque<byte[]> keep = new ArrayDeque<>();
        long end = System.nanoTime() + 6_000_000_000L;
        while (System.nanoTime() < end) {
            keep.addLast(new byte[128 << 10]);
            if (keep.size() > 400)
                keep.removeFirst();
        }
        System.out.println(System.currentTimeMillis() + " peak over, idle for " + idleS + " s");
        Thread.sleep(idleS * 1000L);
        System.out.println(System.currentTimeMillis() + " idle over");
        end = System.nanoTime() + 2_000_000_000L;
        long sum = 0;
        while (System.nanoTime() < end) {
            for (int i = 0; i < 16; i++) {
                keep.addLast(new byte[64 << 10]);
                if (keep.size() > 400)
                    keep.removeFirst();
            }
            sum += keep.size();
            Thread.sleep(1);
        }
        System.out.println(System.currentTimeMillis() + " done " + sum);
    }
}
