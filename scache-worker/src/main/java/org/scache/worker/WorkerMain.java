package org.scache.worker;

import java.util.concurrent.CountDownLatch;
import org.scache.common.config.ScacheConf;

/** Runs a worker in the foreground: {@code WorkerMain [--conf scache.properties]}; stops on SIGTERM. */
public final class WorkerMain {
  private WorkerMain() {}

  public static void main(String[] args) throws Exception {
    ScacheConf conf = org.scache.common.config.CommandLine.confFrom(args, "scache-worker");
    ScacheWorker worker = ScacheWorker.start(conf.withSystemProperties());
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      worker.close();
      stopped.countDown();
    }, "scache-worker-shutdown"));
    System.out.println("scache worker " + worker.info().workerId() + " listening on " + worker.info().address());
    stopped.await();
  }
}
