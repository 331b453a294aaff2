package org.scache.tests;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.scache.client.ReduceInput;
import org.scache.client.ScacheClient;
import org.scache.common.BlockId;
import org.scache.common.config.ScacheConf;
import org.scache.common.network.ClientTransport;
import org.scache.common.shuffle.PartitionerKind;

/**
 * What a map or a reduce task asks of SCache, in a JVM of its own, through a blocking client as
 * tasks use. A map registers the application and the shuffle, puts one block per reduce through the
 * worker's shared memory, declares itself finished and closes; a reduce reads its whole input where
 * the worker holds it, checks every block and releases them. The client's settings come from
 * {@code scache.*} system properties; the arguments are {@code map} or {@code reduce}, the
 * application, its secret, the map or reduce, and the number of maps and of reduces.
 */
public final class MapTaskCalls {
  private MapTaskCalls() {}

  public static void main(String[] args) {
    String role = args[0];
    String app = args[1];
    byte[] secret = args[2].getBytes(StandardCharsets.UTF_8);
    int task = Integer.parseInt(args[3]);
    int maps = Integer.parseInt(args[4]);
    int reduces = Integer.parseInt(args[5]);
    ScacheConf conf = ScacheConf.empty().withSystemProperties();
    try (ScacheClient c = ScacheClient.create(conf, app, secret, ClientTransport.BLOCKING)) {
      if (role.equals("map")) {
        c.registerApplication();
        c.registerShuffle(0, maps, reduces, PartitionerKind.HASH);
        for (int r = 0; r < reduces; r++) {
          c.putBlock(new BlockId(app, 0, task, 0, r), ByteBuffer.wrap(block(task, r)));
        }
        c.mapFinished(0, task, 0);
        return;
      }
      ReduceInput input = c.getReduceInputInPlace(0, task);
      if (!input.isComplete() || input.blocks().size() != maps) {
        throw new IllegalStateException("reduce " + task + " read " + input.blocks().size() + " of " + maps
            + " blocks");
      }
      for (ReduceInput.Block b : input.blocks()) {
        byte[] read = new byte[b.data().remaining()];
        b.data().duplicate().get(read);
        if (!Arrays.equals(block(b.blockId().mapId(), task), read)) {
          throw new IllegalStateException("block " + b.blockId() + " read other bytes than were put");
        }
      }
      input.release();
    }
  }

  /** The bytes map {@code map} puts for reduce {@code reduce}. */
  static byte[] block(int map, int reduce) {
    return BlockData.random(10_000 + 100 * map + reduce, 31L * map + reduce);
  }
}
