/* SPDX-License-Identifier: GPL-2.0-or-later */
// CatalogService: a small HTTP service standing in for a Spring/Tomcat service in the
// stwtop "combined" incident recordings. Built only on the JDK:
//   com.sun.net.httpserver.HttpServer on 127.0.0.1:<port>, listen backlog <backlog> (100),
//   a small fixed pool of request threads (http-exec-1..N); the JDK's HTTP-Dispatcher
//   thread accepts connections and hands each request to the pool.
// Every request is answered 200 at once with a small JSON body (POST /admin/cache/reload: 202;
// POST /admin/gc: 200 after System.gc() returned, like an ops endpoint or a "compact caches" job)
// and logged to the request log as one line:
//   <epoch_ms at handler start> rid=<X-Request-Id header or -> status=<code> proc_ms=<ms, 3 decimals>
//   method=<GET|POST> path=<path> thread=<request thread>
// proc_ms is measured with System.nanoTime() from handler start until the response is sent
// (it includes any JVM stop that hits a request in flight).
//
// Configuration (system properties, all optional):
//   port (28481), backlog (100), threads (4), request.log (requests.log)
//   cache.entries    products kept in an in-heap cache (a HashMap), built by the thread
//                    'cache-loader' before the server starts listening (0 = none)
//   cache.garbage.mb MiB of staging records the loader builds first and drops once the cache is
//                    built (they are promoted to the old generation during the build and stay
//                    there as garbage until a full GC); the loader ends with a "settle" step that
//                    allocates short-lived garbage until one more young collection has happened
//   reload.feed.mb / reload.fraction
//                    POST /admin/cache/reload starts the thread 'cache-reloader': it reads a feed
//                    into one byte[reload.feed.mb MiB] (bigger than eden, so the allocation goes to
//                    the old generation), then replaces reload.fraction of the entries with new
//                    products parsed from it, then drops the feed
//   workers          background batch threads 'batch-worker-N' (an export job); each loops:
//                    worker.work.kiters thousand xorshift steps of CPU work while building
//                    worker.alloc.kb short-lived 1 KiB records and SHA-256-ing each of them, then
//                    (if worker.hash.mb > 0) the SHA-256 of its byte[worker.hash.mb MiB] export
//                    buffer with one MessageDigest.update() call, then sleep worker.sleep.ms.
//                    The many small digests make C2 compile DigestBase.engineUpdate with the
//                    multi-block SHA-256 intrinsic; from then on the big update() is one stub call
//                    over the whole array with no safepoint poll inside (32 MiB: ~26 ms of CPU
//                    with SHA-NI), so a safepoint requested meanwhile waits for it
//   request.work.kiters thousand xorshift steps of CPU work per request (~1 ms per 300-500)
//   request.alloc.kb KiB of short-lived scratch objects per request (framework-like garbage)
//   apm.dump.ms      period of the 'apm-sampler' thread, which takes a thread dump with
//                    ThreadMXBean.dumpAllThreads (a "ThreadDump" safepoint) like a monitoring
//                    agent does (0 = off)
// Lifecycle lines go to stdout: "<epoch_ms> <message>", e.g. "<ms> READY ..." once listening.
// SIGTERM stops it (shutdown hook stops the server and flushes the request log).
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.BufferedWriter;
import java.io.FileWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

public class CatalogService {
    // ---- configuration -------------------------------------------------------------
    static final int PORT = Integer.getInteger("port", 28481);
    static final int BACKLOG = Integer.getInteger("backlog", 100);
    static final int THREADS = Integer.getInteger("threads", 4);
    static final String REQUEST_LOG = System.getProperty("request.log", "requests.log");
    static final int CACHE_ENTRIES = Integer.getInteger("cache.entries", 0);
    static final int CACHE_GARBAGE_MB = Integer.getInteger("cache.garbage.mb", 0);
    static final double RELOAD_FRACTION = Double.parseDouble(System.getProperty("reload.fraction", "0.3"));
    static final int RELOAD_FEED_MB = Integer.getInteger("reload.feed.mb", 800);
    static final int WORKERS = Integer.getInteger("workers", 0);
    static final int WORKER_WORK_KITERS = Integer.getInteger("worker.work.kiters", 1000);
    static final int WORKER_SLEEP_MS = Integer.getInteger("worker.sleep.ms", 20);
    static final int WORKER_ALLOC_KB = Integer.getInteger("worker.alloc.kb", 256);
    static final int WORKER_HASH_MB = Integer.getInteger("worker.hash.mb", 0);
    static final int REQUEST_WORK_KITERS = Integer.getInteger("request.work.kiters", 300);
    static final int REQUEST_ALLOC_KB = Integer.getInteger("request.alloc.kb", 32);
    static final int APM_DUMP_MS = Integer.getInteger("apm.dump.ms", 1000);

    // ---- state ---------------------------------------------------------------------
    static volatile Map<Long, Product> cache = new HashMap<>();
    static volatile boolean running = true;
    static volatile long sink;
    static final AtomicLong requests = new AtomicLong();
    static final AtomicInteger reloads = new AtomicInteger();
    static BufferedWriter requestLog;

    /** One cached product: Product, 2 Strings + their byte[], an ArrayList of 12 boxed prices, map node, Long key (19 objects). */
    static final class Product {
        final long id;
        final String name;
        final String sku;
        final List<Integer> priceHistory;
        final long updatedAt;
        final int stock;

        Product(long id, long seed, long now) {
            this.id = id;
            this.name = "product-" + id + "-" + Long.toHexString(seed & 0xffffff);
            this.sku = "SKU" + Long.toString(seed & 0xfffffffffL, 36).toUpperCase();
            this.priceHistory = new ArrayList<>(12);
            for (int i = 0; i < 12; i++) {
                seed ^= seed << 13; seed ^= seed >>> 7; seed ^= seed << 17;
                priceHistory.add(1000 + (int) ((seed >>> 40) & 0xffff));   // boxed, never from the Integer cache
            }
            this.updatedAt = now;
            this.stock = (int) (seed & 0x3ff);
        }
    }

    static void log(String msg) {
        System.out.println(System.currentTimeMillis() + " " + msg);
        System.out.flush();
    }

    static long xorshift(long x) {
        x ^= x << 13; x ^= x >>> 7; x ^= x << 17;
        return x;
    }

    // ---- cache ---------------------------------------------------------------------
    static void buildCache() {
        long t0 = System.nanoTime();
        long seed = 0x2545F4914F6CDD1DL;
        // staging records: the raw feed of the initial load, parsed first and kept until the
        // cache is built, so they are promoted to the old generation and die there
        List<byte[]> staging = new ArrayList<>();
        for (long b = 0; b < (long) CACHE_GARBAGE_MB << 20; b += 4096) {
            byte[] rec = new byte[4096 - 16];
            seed = xorshift(seed);
            rec[0] = (byte) seed;
            staging.add(rec);
        }
        if (CACHE_GARBAGE_MB > 0) log("cache-loader: staged " + staging.size() + " raw records (" + CACHE_GARBAGE_MB + " MiB)");
        Map<Long, Product> m = new HashMap<>(Math.max(16, (int) (CACHE_ENTRIES / 0.75f) + 1));
        long now = System.currentTimeMillis();
        for (long id = 1; id <= CACHE_ENTRIES; id++) {
            seed = xorshift(seed);
            m.put(id, new Product(id, seed, now));
            if (id % 1_000_000 == 0) log("cache-loader: " + id + " entries");
        }
        cache = m;
        sink += staging.size();
        staging = null;
        log("cache-loader: cache ready entries=" + m.size() + " in " + (System.nanoTime() - t0) / 1_000_000 + " ms");
        // Settle: allocate short-lived validation garbage until one more young collection has
        // happened, so the last cache entries are promoted too and eden is empty when the
        // service starts listening (keeps the timing of later collections reproducible).
        long gcs = collections(), t1 = System.nanoTime();
        long garbage = 0;
        while (collections() == gcs && garbage < (4L << 30)) {
            byte[] g = new byte[65536];
            g[(int) (garbage & 65535)] = 1;
            garbage += g.length;
        }
        log("cache-loader: settled after " + (garbage >> 20) + " MiB of validation garbage, "
                + (System.nanoTime() - t1) / 1_000_000 + " ms (collections " + gcs + " -> " + collections() + ")");
    }

    static long collections() {
        long n = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) n += Math.max(0, gc.getCollectionCount());
        return n;
    }

    /**
     * Reload: read the whole feed into one byte[reload.feed.mb MiB] (larger than eden, so it is
     * allocated directly in the old generation), then replace reload.fraction of the entries
     * with products parsed from it, then drop the feed.
     */
    static void reloadCache(String rid) {
        int n = reloads.incrementAndGet();
        Map<Long, Product> m = cache;
        int total = m.size();
        int count = (int) (total * RELOAD_FRACTION);
        log("cache-reloader: reload #" + n + " started (rid=" + rid + "): reading a " + RELOAD_FEED_MB
                + " MiB feed, then replacing " + count + " of " + total + " entries");
        long t0 = System.nanoTime();
        byte[] feed = new byte[RELOAD_FEED_MB << 20];
        long t1 = System.nanoTime();
        long seed = 0x9E3779B97F4A7C15L * (n + 1);
        for (int off = 0; off < feed.length; off += 4096) {      // "read" it: touch every page
            seed = xorshift(seed);
            feed[off] = (byte) seed;
        }
        log("cache-reloader: feed buffer allocated in " + (t1 - t0) / 1_000_000 + " ms, read in "
                + (System.nanoTime() - t1) / 1_000_000 + " ms");
        long now = System.currentTimeMillis();
        for (int i = 0; i < count; i++) {
            seed = xorshift(seed);
            int off = (int) Math.floorMod(seed, (long) (feed.length - 64));
            seed += feed[off] + feed[off + 32];
            long id = 1 + Math.floorMod(seed, (long) total);
            Product p = new Product(id, seed, now);
            synchronized (m) {
                m.put(id, p);
            }
        }
        sink += feed[feed.length - 1];
        feed = null;
        log("cache-reloader: reload #" + n + " done in " + (System.nanoTime() - t0) / 1_000_000 + " ms");
    }

    // ---- HTTP ----------------------------------------------------------------------
    static void handle(HttpExchange ex) throws IOException {
        long startMs = System.currentTimeMillis();
        long t0 = System.nanoTime();
        String rid = ex.getRequestHeaders().getFirst("X-Request-Id");
        if (rid == null || rid.isEmpty()) rid = "-";
        String method = ex.getRequestMethod();
        String path = ex.getRequestURI().getRawPath();
        try (InputStream in = ex.getRequestBody()) {
            in.readAllBytes();
        }
        int status = 200;
        String body;
        if (path.startsWith("/admin/gc")) {
            // an explicit full collection, as ops endpoints, RMI's distributed GC or a library
            // calling System.gc() do; it runs in this request thread and returns when done
            log("admin-gc: System.gc() requested (rid=" + rid + ")");
            long g0 = System.nanoTime();
            System.gc();
            long gcMs = (System.nanoTime() - g0) / 1_000_000;
            log("admin-gc: System.gc() returned after " + gcMs + " ms");
            body = "{\"gc_ms\":" + gcMs + "}\n";
        } else if (path.startsWith("/admin/cache/reload")) {
            final String r = rid;
            Thread t = new Thread(() -> reloadCache(r), "cache-reloader");
            t.start();
            status = 202;
            body = "{\"reload\":\"started\"}\n";
        } else {
            // framework-like work and garbage: parsing, mapping, serialising
            long h = Thread.currentThread().getId();
            for (int k = 0; k < REQUEST_WORK_KITERS; k++) {
                for (int i = 0; i < 1000; i++) h = xorshift(h);
            }
            int kb = REQUEST_ALLOC_KB;
            for (int i = 0; i < kb; i += 4) {
                byte[] scratch = new byte[4096];
                scratch[i & 4095] = (byte) i;
                h += scratch.length + scratch[0];
            }
            long id = 0;
            int slash = path.lastIndexOf('/');
            try { id = Long.parseLong(path.substring(slash + 1)); } catch (NumberFormatException ignored) { }
            Map<Long, Product> m = cache;
            Product p;
            synchronized (m) {
                p = m.get(id);
            }
            StringBuilder sb = new StringBuilder(256);
            sb.append("{\"id\":").append(id);
            if (p != null) {
                sb.append(",\"name\":\"").append(p.name).append("\",\"sku\":\"").append(p.sku)
                  .append("\",\"price\":").append(p.priceHistory.get(p.priceHistory.size() - 1))
                  .append(",\"stock\":").append(p.stock);
            } else {
                sb.append(",\"name\":\"product-").append(id).append("\",\"price\":").append(h & 0xffff);
            }
            sb.append(",\"served_by\":\"").append(Thread.currentThread().getName()).append("\"}\n");
            body = sb.toString();
        }
        byte[] out = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", "application/json");
        ex.sendResponseHeaders(status, out.length);
        try (OutputStream os = ex.getResponseBody()) {
            os.write(out);
        }
        double procMs = (System.nanoTime() - t0) / 1e6;
        requests.incrementAndGet();
        String line = startMs + " rid=" + rid + " status=" + status + " proc_ms=" + String.format(Locale.ROOT, "%.3f", procMs)
                + " method=" + method + " path=" + path + " thread=" + Thread.currentThread().getName() + "\n";
        synchronized (CatalogService.class) {
            requestLog.write(line);
            requestLog.flush();
        }
    }

    // ---- background threads --------------------------------------------------------
    static void startWorkers() {
        for (int w = 1; w <= WORKERS; w++) {
            final long seed0 = 0x9E3779B97F4A7C15L * w;
            Thread t = new Thread(() -> {
                long x = seed0;
                byte[] export = WORKER_HASH_MB > 0 ? new byte[WORKER_HASH_MB << 20] : null;
                MessageDigest sha;
                try { sha = MessageDigest.getInstance("SHA-256"); } catch (Exception e) { throw new RuntimeException(e); }
                int records = Math.max(1, WORKER_ALLOC_KB);
                int itersPerRecord = Math.max(1, WORKER_WORK_KITERS * 1000 / records);
                while (running) {
                    for (int r = 0; r < records; r++) {
                        for (int i = 0; i < itersPerRecord; i++) x = xorshift(x);
                        byte[] record = new byte[1024];   // short-lived garbage
                        for (int i = 0; i < 1024; i += 8) record[i] = (byte) (x >>> i);
                        sha.update(record);
                        x += sha.digest()[0];
                    }
                    if (export != null) {
                        export[(int) (x & 0xfffff)] = (byte) x;
                        sha.update(export);
                        x += sha.digest()[0];
                    }
                    sink += x;
                    try { Thread.sleep(WORKER_SLEEP_MS); } catch (InterruptedException e) { return; }
                }
            }, "batch-worker-" + w);
            t.setDaemon(true);
            t.start();
        }
    }

    static void startApmSampler() {
        if (APM_DUMP_MS <= 0) return;
        Thread t = new Thread(() -> {
            ThreadMXBean mx = ManagementFactory.getThreadMXBean();
            while (running) {
                try { Thread.sleep(APM_DUMP_MS); } catch (InterruptedException e) { return; }
                sink += mx.dumpAllThreads(false, false).length;
            }
        }, "apm-sampler");
        t.setDaemon(true);
        t.start();
    }

    public static void main(String[] args) throws Exception {
        log("starting pid=" + ProcessHandle.current().pid() + " availableProcessors="
                + Runtime.getRuntime().availableProcessors() + " maxHeapMiB=" + (Runtime.getRuntime().maxMemory() >> 20)
                + " port=" + PORT + " backlog=" + BACKLOG + " threads=" + THREADS + " cache.entries=" + CACHE_ENTRIES
                + " workers=" + WORKERS + " worker.hash.mb=" + WORKER_HASH_MB + " apm.dump.ms=" + APM_DUMP_MS);
        requestLog = new BufferedWriter(new FileWriter(REQUEST_LOG, true), 1 << 16);
        if (CACHE_ENTRIES > 0) {
            Thread loader = new Thread(CatalogService::buildCache, "cache-loader");
            loader.start();
            loader.join();
        }
        AtomicInteger n = new AtomicInteger();
        ThreadFactory tf = r -> {
            Thread t = new Thread(r, "http-exec-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
        ExecutorService pool = Executors.newFixedThreadPool(THREADS, tf);
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), PORT), BACKLOG);
        server.createContext("/", ex -> {
            try {
                handle(ex);
            } catch (Throwable t) {
                log("request failed: " + t);
            } finally {
                ex.close();
            }
        });
        server.setExecutor(pool);
        server.start();
        startWorkers();
        startApmSampler();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            running = false;
            server.stop(0);
            pool.shutdown();
            synchronized (CatalogService.class) {
                try { requestLog.flush(); } catch (IOException ignored) { }
            }
            log("stopped after " + requests.get() + " requests");
        }, "shutdown"));
        log("READY listening 127.0.0.1:" + PORT + " backlog=" + BACKLOG);
        while (running) {
            Thread.sleep(1000);
        }
    }
}
