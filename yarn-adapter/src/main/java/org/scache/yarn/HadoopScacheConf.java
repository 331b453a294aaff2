package org.scache.yarn;

import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;

/** Reads the {@code scache.*} entries of a Hadoop configuration (yarn-site, mapred-site, job conf) as a ScacheConf. */
public final class HadoopScacheConf {
  private HadoopScacheConf() {}

  public static ScacheConf from(Configuration conf) {
    Map<String, String> values = new HashMap<>();
    for (Map.Entry<String, String> e : conf.getPropsWithPrefix("scache.").entrySet()) {
      values.put("scache." + e.getKey(), e.getValue());
    }
    // a single master address in yarn-site serves both the NodeManagers' workers and the tasks' clients
    if (!values.containsKey(ScacheOptions.CLIENT_MASTER_ADDRESS.key())
        && values.containsKey(ScacheOptions.WORKER_MASTER_ADDRESS.key())) {
      values.put(ScacheOptions.CLIENT_MASTER_ADDRESS.key(), values.get(ScacheOptions.WORKER_MASTER_ADDRESS.key()));
    }
    return ScacheConf.of(values);
  }
}
