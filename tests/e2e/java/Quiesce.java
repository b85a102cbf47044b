/* SPDX-License-Identifier: GPL-2.0-or-later */
// Quiesce: allocate garbage and keep some live, System.gc() a few times, print "ready", then sleep
// so the JVM's GC counters stop moving (a test reads jstat and stwtop at the same time).
import java.util.ArrayList;
import java.util.List;
public class Quiesce {
    static volatile Object sink;
    public static void main(String[] a) throws Exception {
        long allocMs = a.length > 0 ? Long.parseLong(a[0]) : 1500;
        long sleepMs = a.length > 1 ? Long.parseLong(a[1]) : 600000;
        List<byte[]> keep = new ArrayList<>();
        long end = System.currentTimeMillis() + allocMs;
        int i = 0;
        while (System.currentTimeMillis() < end) {
            sink = new byte[64 * 1024];
            if (++i % 64 == 0) keep.add(new byte[16 * 1024]);
            if (keep.size() > 400) keep.clear();
        }
        System.gc();
        System.gc();
        System.out.println("ready " + System.currentTimeMillis());
        System.out.flush();
        Thread.sleep(sleepMs);
    }
}
