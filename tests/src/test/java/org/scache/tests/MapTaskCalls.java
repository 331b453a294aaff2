package org.scache.tests;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.scache.client.ScacheClient;
import org.scache.common.BlockId;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import org.scache.common.shuffle.PartitionerKind;

/**
 * What a map task asks of SCache, in a JVM of its own: a blocking client registers the application
 * and the shuffle, puts one block per reduce through the worker's shared memory, declares the map
 * finished and closes. The client's settings come from {@code scache.*} system properties; the
 * arguments are the application, its secret, the map and the number of reduces.
 */
public final class MapTaskCalls {
  private MapTaskCalls() {}

  public static void main(String[] args) {
    String app = args[0];
    byte[] secret = args[1].getBytes(StandardCharsets.UTF_8);
    int map = Integer.parseInt(args[2]);
    int reduces = Integer.parseInt(args[3]);
    ScacheConf conf = ScacheConf.empty().withSystemProperties()
        .with(ScacheOptions.CLIENT_TRANSPORT_MODE, "blocking");
    try (ScacheClient c = ScacheClient.create(conf, app, secret)) {
      c.registerApplication();
      c.registerShuffle(0, map + 1, reduces, PartitionerKind.HASH);
      for (int r = 0; r < reduces; r++) {
        c.putBlock(new BlockId(app, 0, map, 0, r), ByteBuffer.wrap(BlockData.random(10_000 + r, r)));
      }
      c.mapFinished(0, map, 0);
    }
  }
}
