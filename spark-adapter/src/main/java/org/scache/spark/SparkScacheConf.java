package org.scache.spark;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.spark.SparkConf;
import org.scache.common.config.ConfigEntry;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import scala.Tuple2;

/**
 * Reads SCache's configuration from a SparkConf: every {@code spark.scache.*} key that names an
 * SCache key without its {@code spark.} prefix, and the adapter's own typed keys.
 */
final class SparkScacheConf {
  private static final Set<String> SCACHE_KEYS = ScacheOptions.all().stream().map(ConfigEntry::key)
      .collect(Collectors.toUnmodifiableSet());
  private static final String NM_AUX_SERVICE_ENV = "NM_AUX_SERVICE_";

  private final SparkConf spark;

  SparkScacheConf(SparkConf spark) {
    this.spark = spark;
  }

  /** The SCache keys set as {@code spark.scache.*}. */
  ScacheConf scache() {
    Map<String, String> values = new HashMap<>();
    for (Tuple2<String, String> kv : spark.getAllWithPrefix("spark.")) {
      if (SCACHE_KEYS.contains(kv._1())) {
        values.put(kv._1(), kv._2());
      }
    }
    // one master address serves the workers (if started from this file) and the client
    if (!values.containsKey(ScacheOptions.CLIENT_MASTER_ADDRESS.key())
        && values.containsKey(ScacheOptions.WORKER_MASTER_ADDRESS.key())) {
      values.put(ScacheOptions.CLIENT_MASTER_ADDRESS.key(), values.get(ScacheOptions.WORKER_MASTER_ADDRESS.key()));
    }
    return ScacheConf.of(values);
  }

  /** An adapter key's value, or its default. */
  <T> T get(ConfigEntry<T> entry) {
    return entry.parse(spark.get(entry.key(), entry.defaultText()));
  }

  /**
   * The worker of this executor's node: on YARN the one the NodeManager's auxiliary service published,
   * elsewhere the worker on {@code host} at the configured worker port.
   */
  String workerAddress(String host, Map<String, String> env) {
    Optional<String> fromYarn = auxServiceWorker(get(SparkScacheOptions.YARN_AUX_SERVICE), env);
    if (fromYarn.isPresent()) {
      return fromYarn.get();
    }
    return host + ":" + scache().get(ScacheOptions.WORKER_PORT);
  }

  /** The address an auxiliary service published, as YARN hands it to containers (Base64 in the environment). */
  static Optional<String> auxServiceWorker(String service, Map<String, String> env) {
    String encoded = env.get(NM_AUX_SERVICE_ENV + service);
    if (encoded == null || encoded.isBlank()) {
      return Optional.empty();
    }
    String address = new String(Base64.getDecoder().decode(encoded.trim()), StandardCharsets.UTF_8).trim();
    return address.isEmpty() ? Optional.empty() : Optional.of(address);
  }
}
