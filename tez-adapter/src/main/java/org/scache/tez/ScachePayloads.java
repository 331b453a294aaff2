package org.scache.tez;

import java.io.IOException;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.tez.common.TezUtils;
import org.apache.tez.dag.api.UserPayload;

/**
 * The payloads of SCache edges and of their consumers' vertex managers: Tez's own configuration
 * payload plus the switch, every {@code scache.*} key of the DAG's configuration, the edge's and the
 * consumer's numbers, and the edge number of each SCache input of the consumer by source vertex.
 * Written by {@link ScacheTezDag} on the client and by {@link ScacheDagRewrite} in the application master.
 */
final class ScachePayloads {
  private ScachePayloads() {}

  /** {@code edgePayload} with the SCache keys of {@code dagConf}, the edge's number and the consumer's stage. */
  static UserPayload edge(UserPayload edgePayload, Configuration dagConf, int ordinal, int stage) {
    Configuration payload = decode(edgePayload);
    copyScacheKeys(dagConf, payload);
    payload.setInt(TezScacheSettings.EDGE_ORDINAL, ordinal);
    payload.setInt(TezScacheSettings.STAGE_ORDINAL, stage);
    return encode(payload);
  }

  /** {@code payload} with the edge number of every SCache input of the consumer, by source vertex name. */
  static UserPayload withSources(UserPayload payload, Map<String, Integer> sources) {
    Configuration conf = decode(payload);
    withSources(conf, sources);
    return encode(conf);
  }

  static void withSources(Configuration payload, Map<String, Integer> sources) {
    for (Map.Entry<String, Integer> e : sources.entrySet()) {
      payload.setInt(TezScacheSettings.SOURCE_EDGE_ORDINAL_PREFIX + e.getKey(), e.getValue());
    }
  }

  /** The switch (on) and every SCache key of the DAG's configuration, for the tasks and the vertex manager. */
  static void copyScacheKeys(Configuration dagConf, Configuration payload) {
    for (Map.Entry<String, String> e : dagConf.getPropsWithPrefix("scache.").entrySet()) {
      payload.set("scache." + e.getKey(), e.getValue());
    }
    payload.setBoolean(TezScacheOptions.ENABLED.key(), true);
  }

  static Configuration decode(UserPayload payload) {
    try {
      return payload == null || !payload.hasPayload() ? new Configuration(false)
          : TezUtils.createConfFromUserPayload(payload);
    } catch (IOException e) {
      throw new IllegalArgumentException("unreadable Tez configuration payload", e);
    }
  }

  static UserPayload encode(Configuration conf) {
    try {
      return TezUtils.createUserPayloadFromConf(conf);
    } catch (IOException e) {
      throw new IllegalStateException("could not write a Tez configuration payload", e);
    }
  }
}
