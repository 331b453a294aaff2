package org.scache.benchmarks.hadoop;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Locale;
import org.scache.benchmarks.harness.ByteSize;
import org.scache.client.ScacheClient;
import org.scache.common.BlockId;
import org.scache.common.ScacheException;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import org.scache.common.protocol.Status;
import org.scache.common.shuffle.PartitionerKind;

/**
 * Another application that fills one worker's reserve: it puts blocks of a shuffle no map ever finishes into the
 * worker until the worker can take no more (memory and spill disk full: {@code RETRY_LATER}, or {@code STORE_FULL}),
 * prints {@code BALLAST full ...}, holds its blocks until the release file appears, then removes its application
 * (and with it every block) and exits. The fault campaign's {@code spill-full} case runs it on a worker whose spill
 * disk it has filled.
 */
public final class ReserveBallast {
  private static final int BLOCK_BYTES = 4 << 20;
  private static final int MAX_BLOCKS = 4096;
  private static final Duration LONGEST_HOLD = Duration.ofMinutes(30);

  private ReserveBallast() {}

  public static void main(String[] args) throws Exception {
    Options options = new Options("Fills a worker's reserve with the blocks of an application of its own",
        new Options.Option("cluster", "", "the namespaced cluster's run directory"),
        new Options.Option("worker", "", "host:port of the worker to fill"),
        new Options.Option("release", "", "the file whose appearance releases the blocks"));
    if (!options.parse(args)) {
      return;
    }
    Path release = Path.of(options.get("release"));
    ScacheConf conf = ConfiguredCluster.open(Path.of(options.get("cluster"))).scacheConf(options.get("worker"))
        .with(ScacheOptions.CLIENT_LOCAL_SHM_ENABLED, false)
        .with(ScacheOptions.CLIENT_RETRY_BUSY_TIMEOUT, Duration.ofSeconds(1));
    byte[] secret = new byte[32];
    new SecureRandom().nextBytes(secret);
    String app = "ballast-" + ProcessHandle.current().pid();
    try (ScacheClient client = ScacheClient.create(conf, app, secret)) {
      client.registerApplication();
      client.registerShuffle(0, 1, MAX_BLOCKS, PartitionerKind.HASH);
      ByteBuffer block = ByteBuffer.allocate(BLOCK_BYTES);
      long held = 0;
      String why = "it took " + MAX_BLOCKS + " blocks";
      for (int r = 0; r < MAX_BLOCKS; r++) {
        try {
          client.putBlock(new BlockId(app, 0, 0, 0, r), block.duplicate());
          held += BLOCK_BYTES;
        } catch (ScacheException e) {
          if (e.status() != Status.RETRY_LATER && e.status() != Status.STORE_FULL) {
            throw e;
          }
          why = e.status() + ": " + e.getMessage();
          break;
        }
      }
      System.out.printf(Locale.ROOT, "BALLAST full: %s held by %s (%s)%n", ByteSize.format(held), app, why);
      System.out.flush();
      long deadline = System.nanoTime() + LONGEST_HOLD.toNanos();
      while (!Files.exists(release) && System.nanoTime() < deadline) {
        Thread.sleep(200);
      }
      client.removeApplication();
      System.out.println("BALLAST released");
    }
  }
}
