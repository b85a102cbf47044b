/* SPDX-License-Identifier: GPL-2.0-or-later */
// BigCopy: a thread that copies 768 MiB with one System.arraycopy call at a
// time. The copy is an intrinsic with no safepoint poll inside, so a safepoint
// requested meanwhile (a GC, a thread dump) waits for it to finish: the time
// to safepoint is the rest of the copy. No CPU limit: the stop is the code's.
// Other threads allocate a little so that G1 needs safepoints; the main thread
// asks for thread dumps (a safepoint operation) every 500 ms.
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

public class BigCopy {
    public static void main(String[] args) throws Exception {
        int seconds = Integer.parseInt(args.length > 0 ? args[0] : "12");
        final byte[] a = new byte[768 << 20], b = new byte[768 << 20];
        Thread copier = new Thread(() -> {
            while (true)
                System.arraycopy(a, 0, b, 0, a.length);
        }, "copier");
        copier.setDaemon(true);
        copier.start();
        Thread alloc = new Thread(() -> {
            long sum = 0;
            while (true) {
                byte[] x = new byte[64 << 10];
                sum += x.length;
                if ((sum & ((1 << 26) - 1)) == 0)
                    try { Thread.sleep(1); } catch (InterruptedException e) { return; }
            }
        }, "allocator");
        alloc.setDaemon(true);
        alloc.start();
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        int dumps = 0;
        while (System.nanoTime() < end) {
            Thread.sleep(500);
            mx.dumpAllThreads(false, false);
            dumps++;
        }
        System.out.println(System.currentTimeMillis() + " done, " + dumps + " thread dumps");
    }
}
