/* SPDX-License-Identifier: GPL-2.0-or-later */
// HeldCache — the program of the gc-overhead recordings: a JVM whose live set nearly fills its heap
// while it keeps allocating short-lived garbage, so it spends most of the wall clock in GC pauses.
//
// Phases, each announced on stdout with the wall clock (epoch ms) and the JVM uptime:
//   lead   LEAD_S seconds of short-lived garbage paced at CALM_MIBPS, small live set
//   fill   a cache of CACHE_MIB MiB (64 .. 1023 byte byte[] entries, ~150 000 of them for 84 MiB) is built and kept reachable
//   hold   HOLD_S seconds of short-lived garbage at HOLD_MIBPS (0 = as fast as the JVM lets it)
//          with the cache held: with a small heap, every collection finds the cache live
//   drop   the cache is released (one reference set to null)
//   calm   CALM_S seconds of garbage paced at CALM_MIBPS again, then a normal exit
// and one line per second: `second=<n> phase=<p> alloc_MiB=<n>`.
//
// The garbage of every phase is short-lived but not instantly dead: each block is kept in a ring of
// RECENT_MIB MiB and dropped when the ring comes round again (a request's or a batch's working set),
// so a collection that runs while the ring is full finds up to RECENT_MIB MiB of it live.
//
// Usage: java ... HeldCache LEAD_S CACHE_MIB RECENT_MIB HOLD_S CALM_S CALM_MIBPS HOLD_MIBPS
// An OutOfMemoryError in the hold phase is caught, reported on stdout, and ends the hold phase.
public final class HeldCache {
    private static final long T0 = System.currentTimeMillis();
    private static volatile Object sink;             // keeps the JIT from removing the garbage

    private static Object[] cache;
    private static Object[] young;                   // ring of recent garbage, RECENT_MIB MiB
    private static int youngSlot;
    private static long seed = 42;

    private static int nextInt(int bound) {              // tiny LCG: no java.util.Random allocation
        seed = seed * 6364136223846793005L + 1442695040888963407L;
        return (int) ((seed >>> 33) % bound);
    }

    private static void say(String what) {
        long now = System.currentTimeMillis();
        long up = java.lang.management.ManagementFactory.getRuntimeMXBean().getUptime();
        System.out.println(now + " uptime_ms=" + up + " " + what);
        System.out.flush();
    }

    // Allocates garbage for `seconds` at `mibps` MiB/s (0 = unpaced); one report line per second.
    private static long garbage(String phase, double seconds, int mibps, long secondNo) {
        long start = System.nanoTime();
        long end = start + (long) (seconds * 1e9);
        long bytesThisSecond = 0, nextReport = start + 1_000_000_000L;
        long sliceNs = 10_000_000L;                       // pace in 10 ms slices
        long budgetPerSlice = (long) mibps * 1048576L / 100L;
        long sliceStart = start, sliceBytes = 0;
        while (true) {
            long now = System.nanoTime();
            if (now >= nextReport || now >= end) {
                say("second=" + secondNo + " phase=" + phase + " alloc_MiB=" + (bytesThisSecond >> 20));
                secondNo++;
                bytesThisSecond = 0;
                nextReport += 1_000_000_000L;
                if (now >= end) return secondNo;
            }
            if (mibps > 0 && sliceBytes >= budgetPerSlice) {
                long wait = sliceStart + sliceNs - now;
                if (wait > 0) {
                    try { Thread.sleep(wait / 1_000_000L, (int) (wait % 1_000_000L)); }
                    catch (InterruptedException e) { return secondNo; }
                }
                sliceStart += sliceNs;
                if (System.nanoTime() - sliceStart > 10 * sliceNs) sliceStart = System.nanoTime();
                sliceBytes = 0;
                continue;
            }
            for (int i = 0; i < 64; i++) {
                int size = 64 + nextInt(4032);             // 64 .. 4095 bytes, ~2 KiB on average
                byte[] b = new byte[size];
                b[size - 1] = 1;
                young[youngSlot] = b;
                if (++youngSlot == young.length) youngSlot = 0;
                sliceBytes += size + 16;
                bytesThisSecond += size + 16;
            }
            sink = young[nextInt(young.length)];
        }
    }

    public static void main(String[] args) {
        if (args.length != 7) {
            System.err.println("usage: HeldCache LEAD_S CACHE_MIB RECENT_MIB HOLD_S CALM_S CALM_MIBPS HOLD_MIBPS");
            System.exit(2);
        }
        double leadS = Double.parseDouble(args[0]);
        int cacheMiB = Integer.parseInt(args[1]);
        int recentMiB = Integer.parseInt(args[2]);
        double holdS = Double.parseDouble(args[3]);
        double calmS = Double.parseDouble(args[4]);
        int calmMiBps = Integer.parseInt(args[5]);
        int holdMiBps = Integer.parseInt(args[6]);
        young = new Object[Math.max(64, (int) (((long) recentMiB << 20) / 2080))];
        say("start pid=" + ProcessHandle.current().pid() + " max_heap_MiB=" + (Runtime.getRuntime().maxMemory() >> 20)
            + " lead_s=" + leadS + " cache_MiB=" + cacheMiB + " recent_MiB=" + recentMiB + " ring_slots=" + young.length
            + " hold_s=" + holdS + " calm_s=" + calmS
            + " calm_MiBps=" + calmMiBps + " hold_MiBps=" + holdMiBps);
        long sec = 0;
        say("phase=lead");
        sec = garbage("lead", leadS, calmMiBps, sec);

        say("phase=fill");
        long target = (long) cacheMiB << 20, held = 0;
        java.util.ArrayList<byte[]> entries = new java.util.ArrayList<>();
        while (held < target) {
            int size = 64 + nextInt(960);                 // 64 .. 1023 bytes: many small entries
            byte[] e = new byte[size];
            e[0] = (byte) size;
            entries.add(e);
            held += size + 16;
        }
        cache = entries.toArray();
        entries = null;
        say("filled entries=" + cache.length + " held_MiB=" + (held >> 20));

        say("phase=hold");
        try {
            sec = garbage("hold", holdS, holdMiBps, sec);
        } catch (OutOfMemoryError oom) {
            for (int i = 0; i < young.length; i++) young[i] = null;
            say("OutOfMemoryError in hold: " + oom.getMessage());
        }
        cache = null;
        say("phase=drop");

        say("phase=calm");
        sec = garbage("calm", calmS, calmMiBps, sec);
        say("exit");
    }
}
