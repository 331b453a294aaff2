package org.scache.hadoop.reduce;

import java.io.BufferedInputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.security.GeneralSecurityException;
import javax.crypto.SecretKey;
import javax.net.ssl.HttpsURLConnection;
import org.apache.hadoop.io.WritableUtils;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.TaskAttemptID;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.security.SecureShuffleUtils;
import org.apache.hadoop.mapreduce.task.reduce.ShuffleHeader;
import org.apache.hadoop.security.ssl.SSLFactory;

/**
 * Reads a map attempt's output for one reduce from the shuffle service of the NodeManager it ran on (Hadoop's
 * {@code mapreduce_shuffle}), as Hadoop's own fetcher asks for it: the request signed with the job's shuffle
 * secret, the answer's signature checked, then one map output header and the map's IFile segment for the reduce.
 * For the maps of an SCache job that wrote as Hadoop's shuffle (attempts run again, see
 * {@link org.scache.hadoop.ShuffleChoice#writesAsHadoop}).
 */
final class ShuffleHandlerReads implements Closeable {
  /** The longest map attempt id a header may name, as Hadoop's shuffle header bounds it. */
  private static final int MAX_ID_LENGTH = 1000;

  private final SecretKey secret;
  private final int connectTimeoutMillis;
  private final int readTimeoutMillis;
  private final SSLFactory ssl;

  ShuffleHandlerReads(JobConf job, SecretKey secret) throws IOException {
    this.secret = secret;
    this.connectTimeoutMillis = job.getInt(MRJobConfig.SHUFFLE_CONNECT_TIMEOUT, 180_000);
    this.readTimeoutMillis = job.getInt(MRJobConfig.SHUFFLE_READ_TIMEOUT, 180_000);
    if (job.getBoolean(MRConfig.SHUFFLE_SSL_ENABLED_KEY, MRConfig.SHUFFLE_SSL_ENABLED_DEFAULT)) {
      ssl = new SSLFactory(SSLFactory.Mode.CLIENT, job);
      try {
        ssl.init();
      } catch (GeneralSecurityException e) {
        throw new IOException("the shuffle's SSL client could not start: " + e.getMessage(), e);
      }
    } else {
      ssl = null;
    }
  }

  /** One map attempt's output for the reduce, its stream positioned at the segment's first byte. */
  record MapSegment(String mapId, long compressedLength, long rawLength, InputStream in, HttpURLConnection connection)
      implements Closeable {
    @Override
    public void close() throws IOException {
      try {
        in.close();
      } finally {
        connection.disconnect();
      }
    }
  }

  /** The header a shuffle service sends before a map's segment. */
  record Header(String mapId, long compressedLength, long rawLength, int forReduce) {
    static Header read(DataInputStream in) throws IOException {
      String mapId = WritableUtils.readStringSafely(in, MAX_ID_LENGTH);
      long compressed = WritableUtils.readVLong(in);
      long raw = WritableUtils.readVLong(in);
      int forReduce = WritableUtils.readVInt(in);
      return new Header(mapId, compressed, raw, forReduce);
    }
  }

  /**
   * Asks {@code httpAddress} ({@code http://host:port}, from the map's completion event) for {@code map}'s output
   * for {@code reduce} of {@code jobId}; fails when the service refuses, the answer is not signed with the job's
   * secret, or it names another map or reduce.
   */
  MapSegment open(String httpAddress, String jobId, TaskAttemptID map, int reduce) throws IOException {
    URL url = new URL(httpAddress + "/mapOutput?job=" + jobId + "&reduce=" + reduce + "&map=" + map);
    HttpURLConnection connection = (HttpURLConnection) url.openConnection();
    if (ssl != null && connection instanceof HttpsURLConnection https) {
      try {
        https.setSSLSocketFactory(ssl.createSSLSocketFactory());
      } catch (GeneralSecurityException e) {
        throw new IOException("no SSL socket for " + url + ": " + e.getMessage(), e);
      }
      https.setHostnameVerifier(ssl.getHostnameVerifier());
    }
    String hash = SecureShuffleUtils.hashFromString(SecureShuffleUtils.buildMsgFrom(url), secret);
    connection.addRequestProperty(SecureShuffleUtils.HTTP_HEADER_URL_HASH, hash);
    connection.addRequestProperty(ShuffleHeader.HTTP_HEADER_NAME, ShuffleHeader.DEFAULT_HTTP_HEADER_NAME);
    connection.addRequestProperty(ShuffleHeader.HTTP_HEADER_VERSION, ShuffleHeader.DEFAULT_HTTP_HEADER_VERSION);
    connection.setConnectTimeout(connectTimeoutMillis);
    connection.setReadTimeout(readTimeoutMillis);
    boolean opened = false;
    try {
      connection.connect();
      int code = connection.getResponseCode();
      if (code != HttpURLConnection.HTTP_OK) {
        throw new IOException(url + " answered " + code + " " + connection.getResponseMessage());
      }
      if (!ShuffleHeader.DEFAULT_HTTP_HEADER_NAME.equals(connection.getHeaderField(ShuffleHeader.HTTP_HEADER_NAME))
          || !ShuffleHeader.DEFAULT_HTTP_HEADER_VERSION.equals(
              connection.getHeaderField(ShuffleHeader.HTTP_HEADER_VERSION))) {
        throw new IOException(url + " is not a MapReduce shuffle service of version "
            + ShuffleHeader.DEFAULT_HTTP_HEADER_VERSION);
      }
      String reply = connection.getHeaderField(SecureShuffleUtils.HTTP_HEADER_REPLY_URL_HASH);
      if (reply == null) {
        throw new IOException(url + " did not sign its answer");
      }
      SecureShuffleUtils.verifyReply(reply, hash, secret);
      DataInputStream in = new DataInputStream(new BufferedInputStream(connection.getInputStream(), 64 * 1024));
      Header header = Header.read(in);
      if (!map.toString().equals(header.mapId()) || header.forReduce() != reduce) {
        in.close();
        throw new IOException(url + " sent the output of " + header.mapId() + " for reduce " + header.forReduce());
      }
      if (header.compressedLength() < 0 || header.rawLength() < 0) {
        in.close();
        throw new IOException(url + " sent negative lengths: " + header);
      }
      opened = true;
      return new MapSegment(header.mapId(), header.compressedLength(), header.rawLength(), in, connection);
    } finally {
      if (!opened) {
        connection.disconnect();
      }
    }
  }

  @Override
  public void close() {
    if (ssl != null) {
      ssl.destroy();
    }
  }
}
