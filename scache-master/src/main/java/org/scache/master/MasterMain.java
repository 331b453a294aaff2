package org.scache.master;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import org.scache.common.config.ScacheConf;

/** Runs the master in the foreground: {@code MasterMain [--conf scache.properties]}; stops on SIGTERM. */
public final class MasterMain {
  private MasterMain() {}

  public static void main(String[] args) throws Exception {
    ScacheConf conf = args.length >= 2 && args[0].equals("--conf") ? ScacheConf.load(Path.of(args[1]))
        : ScacheConf.empty();
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
