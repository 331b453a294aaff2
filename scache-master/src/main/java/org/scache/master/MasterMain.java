package org.scache.master;

import java.util.concurrent.CountDownLatch;
import org.scache.common.config.ScacheConf;

/** Runs the master in the foreground: {@code MasterMain [--conf scache.properties]}; stops on SIGTERM. */
public final class MasterMain {
  private MasterMain() {}

  public static void main(String[] args) throws Exception {
    ScacheConf conf = org.scache.common.config.CommandLine.confFrom(args, "scache-master");
    ScacheMaster master = ScacheMaster.start(conf.withSystemProperties());
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      master.close();
      stopped.countDown();
    }, "scache-master-shutdown"));
    System.out.println("scache master listening on port " + master.port());
    stopped.await();
  }
}
