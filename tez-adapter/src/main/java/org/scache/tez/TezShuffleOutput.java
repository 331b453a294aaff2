package org.scache.tez;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.tez.dag.api.TezConfiguration;
import org.apache.tez.runtime.api.OutputContext;
import org.apache.tez.runtime.library.common.shuffle.ShuffleUtils;

/**
 * Where Tez's shuffle service serves a producer attempt's output that SCache did not take: the node's host and
 * shuffle port, and the attempt's path component (its output directory's name), as Tez's own data movement event
 * names them for an output of one final file. An empty host means the attempt wrote no output file: every
 * partition is empty.
 */
record TezShuffleOutput(String host, int port, String pathComponent) {
  /** Of an attempt that wrote no record, so no file: every partition is empty. */
  static final TezShuffleOutput EMPTY = new TezShuffleOutput("", 0, "");

  boolean empty() {
    return host.isEmpty();
  }

  /** Where Tez's shuffle service on this node serves the final output file of the attempt {@code context} runs. */
  static TezShuffleOutput of(OutputContext context, Configuration conf) throws IOException {
    String service = conf.get(TezConfiguration.TEZ_AM_SHUFFLE_AUXILIARY_SERVICE_ID,
        TezConfiguration.TEZ_AM_SHUFFLE_AUXILIARY_SERVICE_ID_DEFAULT);
    int port = ShuffleUtils.deserializeShuffleProviderMetaData(context.getServiceProviderMetaData(service));
    return new TezShuffleOutput(context.getExecutionContext().getHostName(), port, context.getUniqueIdentifier());
  }
}
