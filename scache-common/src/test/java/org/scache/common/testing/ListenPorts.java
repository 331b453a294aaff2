package org.scache.common.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Ports for a daemon that must be told its port before it starts (a mini cluster's ResourceManager, a
 * daemon process). A port the kernel handed out with {@code new ServerSocket(0)} comes from the
 * ephemeral range, where every outgoing connection of every process on the machine also takes its
 * local port, so between the probe and the daemon's bind another connection may hold it (a
 * {@code BindException} seen in CI). These ports are taken below that range, where only explicit binds
 * land, probed free, and never handed out twice by one JVM.
 */
public final class ListenPorts {
  private static final int LOWEST = 15_000;
  private static final Set<Integer> GIVEN = ConcurrentHashMap.newKeySet();

  private ListenPorts() {}

  /** A port free on the loopback address now, outside the ephemeral range, not given before by this JVM. */
  public static int free() throws IOException {
    return freeOnEvery(List.of(InetAddress.getLoopbackAddress().getHostAddress()));
  }

  /** As {@link #free()}, a port free on every one of {@code addresses} (several loopback addresses, say). */
  public static int freeOnEvery(List<String> addresses) throws IOException {
    int highest = ephemeralRangeStart() - 1;
    ThreadLocalRandom random = ThreadLocalRandom.current();
    for (int attempt = 0; attempt < 200; attempt++) {
      int port = LOWEST + random.nextInt(highest - LOWEST + 1);
      if (!GIVEN.add(port)) {
        continue;
      }
      if (freeOnEvery(port, addresses)) {
        return port;
      }
    }
    throw new IOException("no free port between " + LOWEST + " and " + highest + " after 200 tries");
  }

  private static boolean freeOnEvery(int port, List<String> addresses) throws IOException {
    for (String address : addresses) {
      try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getByName(address))) {
        socket.getLocalPort();
      } catch (java.net.BindException taken) {
        return false;
      }
    }
    return true;
  }

  /** The first port of the kernel's ephemeral range (Linux's {@code ip_local_port_range}), 32768 elsewhere. */
  static int ephemeralRangeStart() {
    try {
      List<String> lines = Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range"));
      int start = Integer.parseInt(lines.get(0).trim().split("\\s+")[0]);
      return start > LOWEST + 1000 ? start : 32_768;
    } catch (IOException | RuntimeException unreadable) {
      return 32_768;
    }
  }
}
