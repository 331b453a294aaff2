package org.scache.tez;

import java.io.DataInputStream;
import java.io.IOException;
import java.net.URL;
import java.nio.ByteBuffer;
import java.util.List;
import javax.crypto.SecretKey;
import org.apache.hadoop.conf.Configuration;
import org.apache.tez.common.security.JobTokenSecretManager;
import org.apache.tez.dag.api.TezConfiguration;
import org.apache.tez.http.BaseHttpConnection;
import org.apache.tez.http.HttpConnectionParams;
import org.apache.tez.runtime.api.InputContext;
import org.apache.tez.runtime.library.api.TezRuntimeConfiguration;
import org.apache.tez.runtime.library.common.InputAttemptIdentifier;
import org.apache.tez.runtime.library.common.shuffle.ShuffleUtils;
import org.apache.tez.runtime.library.common.shuffle.orderedgrouped.ShuffleHeader;

/**
 * Reads one partition of a producer attempt whose output SCache did not take from Tez's shuffle service on the
 * producer's node, with Tez's own connection (the request signed with the DAG's job token, the answer checked), and
 * returns it as an SCache block: the segment behind a {@link TezBlock} header, so that the consumer's sink takes
 * it like any other.
 */
final class TezShuffleReads {
  private final InputContext context;
  private final JobTokenSecretManager tokens;
  private final HttpConnectionParams params;
  private final boolean ssl;

  TezShuffleReads(InputContext context, Configuration conf) throws IOException {
    this.context = context;
    String service = conf.get(TezConfiguration.TEZ_AM_SHUFFLE_AUXILIARY_SERVICE_ID,
        TezConfiguration.TEZ_AM_SHUFFLE_AUXILIARY_SERVICE_ID_DEFAULT);
    SecretKey secret = ShuffleUtils.getJobTokenSecretFromTokenBytes(context.getServiceConsumerMetaData(service));
    this.tokens = new JobTokenSecretManager(secret, conf);
    this.params = ShuffleUtils.getHttpConnectionParams(conf);
    this.ssl = conf.getBoolean(TezRuntimeConfiguration.TEZ_RUNTIME_SHUFFLE_ENABLE_SSL,
        TezRuntimeConfiguration.TEZ_RUNTIME_SHUFFLE_ENABLE_SSL_DEFAULT);
  }

  /** The partition {@code s} names of its producer's output, served from {@code s.onTez()}, as an SCache block. */
  ByteBuffer read(ConsumerInputs.Source s) throws IOException, InterruptedException {
    TezShuffleOutput from = s.onTez();
    String base = ShuffleUtils.constructBaseURIForShuffleHandler(from.host(), from.port(), s.partition(), 1,
        context.getApplicationId().toString(), context.getDagIdentifier(), ssl).toString();
    URL url = ShuffleUtils.constructInputURL(base,
        List.of(new InputAttemptIdentifier(s.index(), s.attempt(), from.pathComponent())), false);
    BaseHttpConnection connection = ShuffleUtils.getHttpConnection(false, url, params,
        context.getUniqueIdentifier(), tokens);
    try {
      if (!connection.connect()) {
        throw new IOException("could not connect to " + url);
      }
      DataInputStream in = connection.getInputStream();
      connection.validate();
      ShuffleHeader header = new ShuffleHeader();
      header.readFields(in);
      if (!from.pathComponent().equals(header.getMapId()) || header.getPartition() != s.partition()) {
        throw new IOException(url + " sent partition " + header.getPartition() + " of " + header.getMapId());
      }
      if (header.getCompressedLength() < 0 || header.getUncompressedLength() < 0
          || header.getCompressedLength() > Integer.MAX_VALUE - TezBlock.HEADER_BYTES) {
        throw new IOException(url + " sent a segment of impossible lengths: " + header);
      }
      byte[] block = new byte[TezBlock.HEADER_BYTES + (int) header.getCompressedLength()];
      new TezBlock(header.getUncompressedLength(), header.getCompressedLength()).writeHeader(ByteBuffer.wrap(block));
      in.readFully(block, TezBlock.HEADER_BYTES, (int) header.getCompressedLength());
      return ByteBuffer.wrap(block);
    } finally {
      connection.cleanup(true);
    }
  }
}
