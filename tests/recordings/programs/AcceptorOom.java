/* SPDX-License-Identifier: GPL-2.0-or-later */
// AcceptorOom.java — the upstream of the nginx-acceptor-oom recording: the JDK's own
// com.sun.net.httpserver.HttpServer (listen backlog 50, handlers on a pool of 4 threads),
// holding a catalog of small objects (live data a Full GC must mark). GET /report/MS builds a
// "report" that takes the whole heap (it allocates until the heap is full, smaller and smaller
// pieces) and holds it MS ms: while it does, every other allocation fails, and the
// HTTP-Dispatcher thread's (accept, register) throws OutOfMemoryError outside the handler's
// catch: the dispatcher dies, nothing accepts any more, and the JVM runs on with its listen
// socket open. Anything else answers "ok" at once.
//   java -Xmx128m -XX:+UseG1GC -Xlog:gc*,safepoint:file=gc.log:time,uptime,level,tags AcceptorOom PORT
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;

public class AcceptorOom {
    static final List<Object[]> catalog = new ArrayList<>();

    public static void main(String[] a) throws Exception {
        int port = Integer.parseInt(a[0]);
        for (int i = 0; i < 300_000; i++)
            catalog.add(new Object[] {"item-" + i, new byte[64], Integer.valueOf(i)});
        HttpServer s = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 50);
        s.createContext("/", AcceptorOom::handle);
        s.setExecutor(Executors.newFixedThreadPool(4));
        s.start();
        System.out.println(System.currentTimeMillis() + " listening 127.0.0.1:" + port + " backlog 50");
        Thread.sleep(Long.MAX_VALUE);
    }

    static void handle(HttpExchange ex) throws IOException {
        String p = ex.getRequestURI().getPath();
        if (p.startsWith("/report/")) {
            long ms = Long.parseLong(p.substring(8));
            System.out.println(System.currentTimeMillis() + " report starts");
            List<byte[]> held = new ArrayList<>();
            for (int size : new int[] {256 << 10, 16 << 10, 1 << 10, 64}) {
                try {
                    for (;;)
                        held.add(new byte[size]);
                } catch (OutOfMemoryError e) {
                    // full for this size: go on with smaller pieces
                }
            }
            try {
                Thread.sleep(ms);
            } catch (InterruptedException e) {
                // done early
            }
            held = null;
        }
        byte[] body = "ok\n".getBytes();
        ex.sendResponseHeaders(200, body.length);
        try (OutputStream o = ex.getResponseBody()) {
            o.write(body);
        }
    }
}
