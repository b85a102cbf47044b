/* SPDX-License-Identifier: GPL-2.0-or-later */
// VmopLoad — a small service under load for the long-vm-operation recordings
// (tests/recordings/vmop-*): it keeps LIVE_MB of small objects live (the heap
// jmap -histo / a heap dump must walk), two threads allocate garbage, a JDK
// HttpServer (4 threads) answers GET /item?id=N from that cache and two client
// threads call it back to back, printing every request slower than 100 ms.
// With THREADS > 0 it also parks that many threads 32 frames deep (what a thread
// dump must walk). With -javaagent:vmop-agent.jar and mode "redefine", it
// redefines every modifiable loaded class with its own bytes after DELAY_S.
//
//   java ... VmopLoad MODE LIVE_MB THREADS SECONDS PORT DELAY_S
import com.sun.net.httpserver.HttpServer;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.instrument.ClassDefinition;
import java.lang.instrument.Instrumentation;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.URL;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.locks.LockSupport;

public class VmopLoad {
    static volatile Instrumentation inst;
    static volatile boolean running = true;
    static final Map<Long, Object[]> cache = new HashMap<>();
    static volatile long sink;

    public static void premain(String args, Instrumentation i) { inst = i; }
    public static void agentmain(String args, Instrumentation i) { inst = i; }

    static void say(String s) { System.out.println(System.currentTimeMillis() + " " + s); System.out.flush(); }

    static void deep(int n) {
        if (n > 0) { deep(n - 1); return; }
        while (running) LockSupport.parkNanos(1_000_000_000L);
    }

    public static void main(String[] a) throws Exception {
        String mode = a[0];
        int liveMb = Integer.parseInt(a[1]), nthreads = Integer.parseInt(a[2]);
        int seconds = Integer.parseInt(a[3]), port = Integer.parseInt(a[4]);
        int delay = Integer.parseInt(a[5]);
        say("start mode=" + mode + " live_mb=" + liveMb + " threads=" + nthreads);
        // ~80 bytes per entry in a few objects: 1 MB is ~13000 entries
        long entries = (long) liveMb * 13000L;
        for (long k = 0; k < entries; k++)
            cache.put(k, new Object[] { new byte[16], Long.toString(k) });
        for (int t = 0; t < nthreads; t++) {
            Thread th = new Thread(() -> deep(32), "parked-" + t);
            th.setDaemon(true);
            th.start();
        }
        for (int t = 0; t < 2; t++) {
            Thread g = new Thread(() -> {
                while (running) { byte[] b = new byte[4096]; sink += b.length; }
            }, "garbage-" + t);
            g.setDaemon(true);
            g.start();
        }
        HttpServer srv = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 100);
        srv.setExecutor(Executors.newFixedThreadPool(4));
        srv.createContext("/item", ex -> {
            String q = ex.getRequestURI().getQuery();
            long id = q == null ? 0 : Long.parseLong(q.substring(3));
            Object[] e;
            synchronized (cache) { e = cache.get(id % entries); }
            byte[] body = (e == null ? "none\n" : e[1] + "\n").getBytes();
            ex.sendResponseHeaders(200, body.length);
            try (OutputStream o = ex.getResponseBody()) { o.write(body); }
        });
        srv.start();
        for (int c = 0; c < 2; c++) {
            Thread cl = new Thread(() -> {
                long n = 0;
                while (running) {
                    long t0 = System.nanoTime();
                    try {
                        HttpURLConnection h = (HttpURLConnection) new URL("http://127.0.0.1:" + port + "/item?id=" + (n++ * 7919)).openConnection();
                        try (InputStream in = h.getInputStream()) { in.readAllBytes(); }
                    } catch (Exception ex) { say("request failed: " + ex); }
                    long ms = (System.nanoTime() - t0) / 1_000_000;
                    if (ms >= 100) say("slow request " + ms + " ms");
                    LockSupport.parkNanos(2_000_000L);
                }
            }, "client-" + c);
            cl.setDaemon(true);
            cl.start();
        }
        say("ready entries=" + entries);
        long end = System.currentTimeMillis() + seconds * 1000L;
        if (mode.equals("redefine")) {
            Thread.sleep(delay * 1000L);
            redefineAll();
        }
        while (System.currentTimeMillis() < end) Thread.sleep(100);
        running = false;
        srv.stop(0);
        say("end");
        System.exit(0);
    }

    // every modifiable loaded class that has a .class resource, redefined with its
    // own bytes in one call: one RedefineClasses safepoint for all of them
    static void redefineAll() throws Exception {
        List<ClassDefinition> defs = new ArrayList<>();
        for (Class<?> c : inst.getAllLoadedClasses()) {
            if (!inst.isModifiableClass(c) || c.isArray() || c.isHidden()) continue;
            String res = c.getName().replace('.', '/') + ".class";
            ClassLoader l = c.getClassLoader();
            try (InputStream in = l == null ? ClassLoader.getSystemResourceAsStream(res) : l.getResourceAsStream(res)) {
                if (in != null) defs.add(new ClassDefinition(c, in.readAllBytes()));
            } catch (Exception e) { }
        }
        say("redefining " + defs.size() + " classes");
        long t0 = System.nanoTime();
        inst.redefineClasses(defs.toArray(new ClassDefinition[0]));
        say("redefined " + defs.size() + " classes in " + (System.nanoTime() - t0) / 1_000_000 + " ms");
    }
}
