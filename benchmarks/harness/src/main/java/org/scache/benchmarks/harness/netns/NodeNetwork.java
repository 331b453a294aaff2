package org.scache.benchmarks.harness.netns;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The network of a cluster on one machine: a Linux bridge, and one network namespace per host (a
 * control host for the ResourceManager, the history server, the SCache master and the job client,
 * and one per NodeManager), each joined to the bridge by a veth pair, with an address of a private
 * /24 that exists only on this bridge and a name every host resolves ({@code /etc/netns/<ns>/hosts},
 * which {@code ip netns exec} puts over {@code /etc/hosts}). Nothing is routed off the bridge.
 *
 * <p>The host end of each veth stays in the root namespace, where its counters are the host's
 * traffic ({@link #counters}) and where a rate limit on it shapes what the host receives; the same
 * limit on the namespace's end shapes what it sends ({@link #shape}).
 *
 * <p>Everything is named with the prefix {@value #PREFIX}; {@link #create} first removes what a run
 * that was killed left behind, and {@link #close} removes it all, also from a shutdown hook.
 */
public final class NodeNetwork implements AutoCloseable {
  public static final String PREFIX = "scache-";
  private static final String BRIDGE = PREFIX + "br0";
  private static final String SUBNET = "10.213.7.";
  private static final Path NETNS_ETC = Path.of("/etc/netns");

  /** A host of the cluster: its name, namespace, address, and the root namespace's end of its link. */
  public record Host(String name, String namespace, String address, String link) {}

  private final Host control;
  private final List<Host> nodes;
  private final Thread cleanup = new Thread(this::teardown, "netns-teardown");
  private boolean closed;

  private NodeNetwork(Host control, List<Host> nodes) {
    this.control = control;
    this.nodes = nodes;
  }

  /**
   * Why the harness cannot run on this machine (not root, a command or a kernel feature missing), or
   * null when it can.
   */
  public static String whatIsMissing() {
    if (!"root".equals(System.getProperty("user.name"))) {
      return "the namespaced cluster needs root (network namespaces, veth pairs, tc); running as "
          + System.getProperty("user.name");
    }
    for (String[] tool : new String[][] {{"ip", "iproute2"}, {"tc", "iproute2"}, {"unshare", "util-linux"},
        {"kill", "procps"}}) {
      if (!Shell.succeeds("sh", "-c", "command -v " + tool[0]) && !installed(tool[1])) {
        return "the namespaced cluster needs '" + tool[0] + "', and installing Debian's " + tool[1]
            + " failed (apt-get install -y " + tool[1] + ")";
      }
    }
    String probe = PREFIX + "probe";
    Shell.quietly("ip", "netns", "del", probe);
    if (!Shell.succeeds("ip", "netns", "add", probe)) {
      return "this kernel or container does not allow network namespaces ('ip netns add' failed)";
    }
    Shell.quietly("ip", "netns", "del", probe);
    return null;
  }

  /** Installs Debian package {@code name} with apt-get; whether that worked. */
  private static boolean installed(String name) {
    if (!Shell.succeeds("sh", "-c", "command -v apt-get")) {
      return false;
    }
    try {
      Shell.runFor(600, "sh", "-c", "apt-get install -y -q " + name + " || (apt-get update -q && apt-get install -y -q "
          + name + ")");
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** Creates the bridge, the control host and {@code nodeCount} node hosts, after removing any left over. */
  public static NodeNetwork create(int nodeCount) throws IOException {
    if (nodeCount < 1 || nodeCount > 200) {
      throw new IllegalArgumentException("between 1 and 200 nodes, not " + nodeCount);
    }
    removeLeftovers();
    Host control = host("ctl", 2);
    List<Host> nodes = new ArrayList<>();
    for (int i = 1; i <= nodeCount; i++) {
      nodes.add(host("node" + i, 10 + i));
    }
    NodeNetwork net = new NodeNetwork(control, List.copyOf(nodes));
    Runtime.getRuntime().addShutdownHook(net.cleanup);
    try {
      Shell.run("ip", "link", "add", BRIDGE, "type", "bridge");
      Shell.run("ip", "link", "set", BRIDGE, "up");
      StringBuilder hosts = new StringBuilder("127.0.0.1 localhost\n");
      for (Host h : net.hosts()) {
        hosts.append(h.address()).append(' ').append(h.name()).append('\n');
      }
      for (Host h : net.hosts()) {
        Shell.run("ip", "netns", "add", h.namespace());
        Shell.run("ip", "link", "add", h.link(), "type", "veth", "peer", "name", "eth0", "netns", h.namespace());
        Shell.run("ip", "link", "set", h.link(), "master", BRIDGE, "up");
        Shell.run("ip", "-n", h.namespace(), "addr", "add", h.address() + "/24", "dev", "eth0");
        Shell.run("ip", "-n", h.namespace(), "link", "set", "eth0", "up");
        Shell.run("ip", "-n", h.namespace(), "link", "set", "lo", "up");
        Path etc = NETNS_ETC.resolve(h.namespace());
        Files.createDirectories(etc);
        Files.writeString(etc.resolve("hosts"), hosts.toString(), StandardCharsets.UTF_8);
      }
    } catch (IOException | RuntimeException e) {
      net.close();
      throw e;
    }
    return net;
  }

  /**
   * The network of a new run: fails with what is missing when this machine cannot host it, empties
   * {@code runDir} (leaving an empty {@code data/}), then creates the hosts.
   */
  public static NodeNetwork forRun(Path runDir, int nodeCount) throws IOException {
    String missing = whatIsMissing();
    if (missing != null) {
      throw new IllegalStateException(missing);
    }
    Directories.deleteRecursively(runDir);
    Files.createDirectories(runDir.resolve("data"));
    return create(nodeCount);
  }

  private static Host host(String name, int lastOctet) {
    return new Host(name, PREFIX + name, SUBNET + lastOctet, "scv-" + name);
  }

  public Host control() {
    return control;
  }

  public List<Host> nodes() {
    return nodes;
  }

  public List<Host> hosts() {
    List<Host> all = new ArrayList<>();
    all.add(control);
    all.addAll(nodes);
    return all;
  }

  /**
   * Limits {@code host}'s link to {@code mbit} Mbit/s each way, with {@code delayMs} of one-way delay
   * when above 0 (that needs the kernel's netem); 0 Mbit/s removes the limit.
   */
  public void shape(Host host, int mbit, double delayMs) throws IOException {
    Shell.quietly("tc", "qdisc", "del", "dev", host.link(), "root");
    Shell.quietly("ip", "netns", "exec", host.namespace(), "tc", "qdisc", "del", "dev", "eth0", "root");
    if (mbit <= 0 && delayMs <= 0) {
      return;
    }
    List<String> qdisc = new ArrayList<>();
    if (delayMs > 0) {
      qdisc.addAll(List.of("netem", "delay", String.format(Locale.ROOT, "%.3fms", delayMs)));
      if (mbit > 0) {
        qdisc.addAll(List.of("rate", mbit + "mbit"));
      }
    } else {
      // a burst of at least 10 ms of traffic, and above the 64 KiB segments veth hands over whole
      long burst = Math.max(256 * 1024L, mbit * 1_000_000L / 8 / 100);
      qdisc.addAll(List.of("tbf", "rate", mbit + "mbit", "burst", Long.toString(burst), "latency", "100ms"));
    }
    List<String> outer = new ArrayList<>(List.of("tc", "qdisc", "add", "dev", host.link(), "root"));
    outer.addAll(qdisc);
    List<String> inner = new ArrayList<>(List.of("ip", "netns", "exec", host.namespace(), "tc", "qdisc", "add", "dev",
        "eth0", "root"));
    inner.addAll(qdisc);
    try {
      Shell.run(outer.toArray(String[]::new));
      Shell.run(inner.toArray(String[]::new));
    } catch (IOException e) {
      if (delayMs > 0 && e.getMessage().contains("qdisc kind is unknown")) {
        throw new IOException("a link delay needs the kernel's netem queueing discipline (sch_netem), which this "
            + "kernel does not have; shape the rate only", e);
      }
      throw e;
    }
  }

  /**
   * Sets the TCP congestion control of every host's connections opened from now on (a name from
   * {@code net.ipv4.tcp_available_congestion_control}, such as cubic or bbr); new namespaces start
   * with the machine's.
   */
  public void congestionControl(String algorithm) throws IOException {
    String allowed = Files.readString(Path.of("/proc/sys/net/ipv4/tcp_allowed_congestion_control")).trim();
    if (!List.of(allowed.split("\\s+")).contains(algorithm)) {
      // a namespace may only choose among the algorithms the machine allows
      throw new IOException("TCP congestion control " + algorithm + " is not among those a network namespace may "
          + "use (net.ipv4.tcp_allowed_congestion_control: " + allowed + "); as root: sysctl -w "
          + "net.ipv4.tcp_allowed_congestion_control='" + allowed + " " + algorithm + "'");
    }
    for (Host h : hosts()) {
      Shell.run("ip", "netns", "exec", h.namespace(), "sysctl", "-q", "-w",
          "net.ipv4.tcp_congestion_control=" + algorithm);
    }
  }

  /** Takes {@code host}'s link down (nothing reaches it or leaves it) or up again. */
  public void setLinkUp(Host host, boolean up) throws IOException {
    Shell.run("ip", "link", "set", host.link(), up ? "up" : "down");
  }

  /** Bytes {@code host} has received and sent on its link so far. */
  public long[] counters(Host host) throws IOException {
    Path stats = Path.of("/sys/class/net", host.link(), "statistics");
    // the root namespace's end: what it transmits, the host receives
    long received = Long.parseLong(Files.readString(stats.resolve("tx_bytes")).trim());
    long sent = Long.parseLong(Files.readString(stats.resolve("rx_bytes")).trim());
    return new long[] {received, sent};
  }

  /** The command line that runs {@code command} on {@code host}: in its namespace, with its host name. */
  public static List<String> onHost(Host host, List<String> command) {
    List<String> out = new ArrayList<>(List.of("ip", "netns", "exec", host.namespace(), "unshare", "--uts", "sh",
        "-c", "hostname \"$0\" && exec \"$@\"", host.name()));
    out.addAll(command);
    return out;
  }

  /** Kills every process of {@code host}'s namespace: the host is lost, as a machine that fails. */
  public void killEverything(Host host) {
    killAll(host.namespace());
  }

  private static void killAll(String namespace) {
    Shell.quietly("sh", "-c", "pids=$(ip netns pids " + namespace + "); [ -z \"$pids\" ] || kill -9 $pids");
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    teardown();
    try {
      Runtime.getRuntime().removeShutdownHook(cleanup);
    } catch (IllegalStateException e) {
      // already shutting down: the hook is running this
    }
  }

  private void teardown() {
    for (Host h : hosts()) {
      removeHost(h.namespace(), h.link());
    }
    Shell.quietly("ip", "link", "del", BRIDGE);
  }

  private static void removeHost(String namespace, String link) {
    killAll(namespace);
    Shell.quietly("ip", "link", "del", link);
    Shell.quietly("ip", "netns", "del", namespace);
    Path etc = NETNS_ETC.resolve(namespace);
    Shell.quietly("rm", "-rf", etc.toString());
  }

  /** Removes the namespaces, links and bridge of an earlier run that did not get to clean up. */
  public static void removeLeftovers() throws IOException {
    for (String line : Shell.run("ip", "netns", "list").split("\n")) {
      String ns = line.trim().split("\\s+")[0];
      if (ns.startsWith(PREFIX)) {
        removeHost(ns, "scv-" + ns.substring(PREFIX.length()));
      }
    }
    for (String line : Shell.run("ip", "-o", "link", "show").split("\n")) {
      String[] parts = line.split(":\\s+");
      if (parts.length > 1) {
        String name = parts[1].split("@")[0].trim();
        if (name.startsWith("scv-") || name.equals(BRIDGE)) {
          Shell.quietly("ip", "link", "del", name);
        }
      }
    }
  }
}
