/* SPDX-License-Identifier: GPL-2.0-or-later */
// HangService.java: an HTTP service that also leaks, for the pause-never-ended-nginx recording.
// A JDK HttpServer on 127.0.0.1:PORT (listen backlog BACKLOG, 4 request threads) answers every
// request 200 at once with a small body; the main thread then runs ../pause-never-ended/Leak.java
// (keeps half of MIBPS MiB/s in 64 KiB arrays), so a young collection eventually meets the memory
// cgroup's limit and hangs inside its pause while the service is listening.
// Usage: java HangService PORT BACKLOG MIBPS      (prints "<epoch_ms> READY pid=<pid>" once listening)
import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;

public class HangService {
    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        int backlog = Integer.parseInt(args[1]);
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), backlog);
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.createContext("/", ex -> {
            byte[] body = "{\"ok\":true}\n".getBytes(StandardCharsets.US_ASCII);
            ex.sendResponseHeaders(200, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        server.start();
        System.out.println(System.currentTimeMillis() + " READY pid=" + ProcessHandle.current().pid());
        System.out.flush();
        Leak.main(new String[] { args[2] });
    }
}
