package org.scache.dist;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.scache.common.auth.SubmitterCredential;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;

/**
 * {@code bin/scache}: asks the master's status endpoint what the cluster and a shuffle are doing, and
 * prints its text form. Exit codes a script can use: {@value #OK} answered; {@value #UNREACHABLE} the
 * master could not be reached or failed; {@value #USAGE} bad arguments; {@value #NOT_FOUND} the master
 * knows no such shuffle; {@value #NO_WORKERS} the master runs but no worker is live.
 */
public final class ScacheCli {
  static final int OK = 0;
  static final int UNREACHABLE = 1;
  static final int USAGE = 2;
  static final int NOT_FOUND = 3;
  static final int NO_WORKERS = 4;

  private static final String USAGE_TEXT = """
      usage: scache [--conf FILE] [--master HOST:PORT] COMMAND
        status                  the cluster: live workers, applications, shuffles
        shuffle APP SHUFFLE     one shuffle: prediction and why, placement, where its bytes went
        submitter-credential USER DAYS
                                a credential for a trusted submitter's applications of USER, valid DAYS days,
                                signed with scache.security.submitter.secret (read here, not from the master)
      --master is the master's status address (default: the host of scache.client.master.address and
      scache.master.http.port). Exit codes: 0 answered, 1 master unreachable or failed, 2 usage,
      3 no such shuffle, 4 no live worker.""";

  private ScacheCli() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  static int run(String[] args, PrintStream out, PrintStream err) {
    List<String> rest = new ArrayList<>();
    String master = null;
    ScacheConf conf = ScacheConf.empty();
    try {
      for (int i = 0; i < args.length; i++) {
        switch (args[i]) {
          case "--master" -> master = value(args, ++i, "--master");
          case "--conf" -> conf = ScacheConf.load(Path.of(value(args, ++i, "--conf")));
          case "-h", "--help" -> {
            out.println(USAGE_TEXT);
            return OK;
          }
          default -> rest.add(args[i]);
        }
      }
    } catch (IllegalArgumentException | IOException e) {
      return usage(err, e.getMessage());
    }
    conf = conf.withSystemProperties();
    if (!rest.isEmpty() && rest.get(0).equals("submitter-credential")) {
      return submitterCredential(rest, conf, out, err);
    }
    String base;
    try {
      base = "http://" + (master != null ? master : defaultMaster(conf));
    } catch (org.scache.common.ScacheException e) {
      err.println("scache: cannot find the master: " + e.getMessage());
      return UNREACHABLE;
    }
    String path;
    if (rest.size() == 1 && rest.get(0).equals("status")) {
      path = "/text/status";
    } else if (rest.size() == 3 && rest.get(0).equals("shuffle")) {
      try {
        Integer.parseInt(rest.get(2));
      } catch (NumberFormatException e) {
        return usage(err, "shuffle id is not a number: " + rest.get(2));
      }
      path = "/text/shuffle?app=" + URLEncoder.encode(rest.get(1), StandardCharsets.UTF_8) + "&id=" + rest.get(2);
    } else {
      return usage(err, rest.isEmpty() ? "no command" : "unknown command: " + String.join(" ", rest));
    }
    HttpResponse<String> answer;
    try {
      answer = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build().send(
          HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(20)).build(),
          HttpResponse.BodyHandlers.ofString());
    } catch (IOException | IllegalArgumentException e) {
      err.println("scache: cannot reach the master at " + base + ": " + e);
      return UNREACHABLE;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return UNREACHABLE;
    }
    if (answer.statusCode() == 404) {
      err.print("scache: " + answer.body());
      return NOT_FOUND;
    }
    if (answer.statusCode() != 200) {
      err.print("scache: the master answered " + answer.statusCode() + ": " + answer.body());
      return UNREACHABLE;
    }
    out.print(answer.body());
    boolean standby = answer.body().startsWith("master: standby");
    return path.equals("/text/status") && !standby && answer.body().contains("\n0 live workers") ? NO_WORKERS : OK;
  }

  /**
   * Prints a submitter credential for USER valid DAYS days (the value of scache.client.submitter.credential,
   * spark.scache.client.submitter.credential in a Spark application's configuration).
   */
  private static int submitterCredential(List<String> args, ScacheConf conf, PrintStream out, PrintStream err) {
    if (args.size() != 3) {
      return usage(err, "submitter-credential needs USER and DAYS");
    }
    String key = conf.get(ScacheOptions.SECURITY_SUBMITTER_SECRET);
    if (key.isEmpty()) {
      return usage(err, ScacheOptions.SECURITY_SUBMITTER_SECRET.key() + " is not set in the configuration");
    }
    long days;
    try {
      days = Long.parseLong(args.get(2));
    } catch (NumberFormatException e) {
      return usage(err, "days is not a number: " + args.get(2));
    }
    try {
      out.println(SubmitterCredential.mint(key.getBytes(StandardCharsets.UTF_8), args.get(1),
          java.time.Instant.now().plus(Duration.ofDays(days))));
    } catch (IllegalArgumentException e) {
      return usage(err, e.getMessage());
    }
    return OK;
  }

  /** The master's status address from the configuration clients use: the leader's, with ZooKeeper. */
  static String defaultMaster(ScacheConf conf) {
    String rpc;
    try (org.scache.common.ha.Locator master = org.scache.common.ha.Locator.master(conf,
        ScacheOptions.CLIENT_MASTER_ADDRESS)) {
      rpc = master.address();
    }
    String host = rpc.substring(0, rpc.lastIndexOf(':'));
    return host + ":" + conf.get(ScacheOptions.MASTER_HTTP_PORT);
  }

  private static String value(String[] args, int i, String option) {
    if (i >= args.length) {
      throw new IllegalArgumentException(option + " needs a value");
    }
    return args[i];
  }

  private static int usage(PrintStream err, String problem) {
    err.println("scache: " + problem);
    err.println(USAGE_TEXT);
    return USAGE;
  }
}
