package org.scache.master;

import java.util.concurrent.CountDownLatch;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;

/** Runs the master in the foreground: {@code MasterMain [--conf scache.properties]}; stops on SIGTERM. */
public final class MasterMain {
  private MasterMain() {}

  public static void main(String[] args) throws Exception {
    ScacheConf conf = org.scache.common.config.CommandLine.confFrom(args, "scache-master").withSystemProperties();
    String stateRoot = System.getenv("SCACHE_STATE_DIR");
    if (!conf.isSet(ScacheOptions.MASTER_STATE_DIR) && stateRoot != null && !stateRoot.isEmpty()) {
      String ident = System.getenv().getOrDefault("SCACHE_IDENT", "");
      conf = conf.with(ScacheOptions.MASTER_STATE_DIR,
          java.nio.file.Path.of(stateRoot, ident.isEmpty() ? "master" : "master-" + ident).toString());
    }
    ScacheMaster master = ScacheMaster.start(conf);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      master.close();
      stopped.countDown();
    }, "scache-master-shutdown"));
    System.out.println("scache master listening on port " + master.port());
    stopped.await();
  }
}
