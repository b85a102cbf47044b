/* SPDX-License-Identifier: GPL-2.0-or-later */
// Burn.java — for tests/e2e/cgroup2_vm.sh: a JVM that first burns CPU on several threads (to be
// throttled by its cgroup's cpu.max), then keeps memory until its cgroup's memory.max has the
// kernel's OOM killer kill it (run it with an -Xmx above that limit).
// Usage: java Burn THREADS BURN_MS KB STEP_MS
// Prints "READY <pid>" at start, "BURNED" when the burning threads are done, then keeps KB more
// every STEP_MS (printing "KEPT <MB>" every 16 MB) until it is killed.
import java.util.ArrayList;
import java.util.List;

public class Burn {
    static final List<byte[]> kept = new ArrayList<>();
    static volatile long sink;

    public static void main(String[] args) throws Exception {
        int threads = Integer.parseInt(args[0]);
        long burnMs = Long.parseLong(args[1]);
        int kb = Integer.parseInt(args[2]);
        long step = Long.parseLong(args[3]);
        System.out.println("READY " + ProcessHandle.current().pid());
        System.out.flush();
        long end = System.nanoTime() + burnMs * 1_000_000L;
        Thread[] t = new Thread[threads];
        for (int i = 0; i < threads; i++) {
            final int seed = i + 1;
            t[i] = new Thread(() -> {
                long x = seed;
                while (System.nanoTime() < end)
                    for (int k = 0; k < 100_000; k++)
                        x = x * 6364136223846793005L + 1442695040888963407L;
                sink += x;
            }, "burn-" + i);
            t[i].start();
        }
        for (Thread th : t)
            th.join();
        System.out.println("BURNED");
        System.out.flush();
        for (long n = 1;; n++) {
            byte[] b = new byte[kb * 1024];
            for (int i = 0; i < b.length; i += 4096)
                b[i] = 1; // resident, whatever the collector does with fresh pages
            kept.add(b);
            if (n * kb % (16 * 1024) == 0) {
                System.out.println("KEPT " + n * kb / 1024);
                System.out.flush();
            }
            Thread.sleep(step);
        }
    }
}
