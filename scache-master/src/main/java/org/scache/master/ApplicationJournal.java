package org.scache.master;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;
import java.util.Map;
import org.scache.common.config.ScacheOptions;

/**
 * Where the master keeps who registered which application id, with which secret, and which ids
 * were removed, so that a restarted master still knows them: without it, the first to register an
 * id after a restart would own it. An append-only file of one line per event, forced to disk before
 * the registration is answered, readable only by the master's user, and rewritten with the live
 * entries only once it has grown to several times their number.
 */
final class ApplicationJournal implements ApplicationStore {
  static final String FILE = "applications.journal";
  private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();
  private static final Base64.Decoder UNB64 = Base64.getUrlDecoder();

  /** The longest application id, in UTF-8 bytes: a wire string's. */
  private static final int MAX_ID_BYTES = 0xFFFF;
  private static final int CHUNK = 64 << 10;

  private final Path file;
  private final StateLimits limits;
  private final SkippedRecords skipped;
  private FileChannel out;
  private int lines;

  private ApplicationJournal(Path file, StateLimits limits, SkippedRecords skipped) {
    this.file = file;
    this.limits = limits;
    this.skipped = skipped;
  }

  /** Opens (creating) the journal's directory {@code dir}, with the default limits; {@link #load} then reads it. */
  static ApplicationJournal open(Path dir) {
    return open(dir, StateLimits.DEFAULTS, SkippedRecords.logged());
  }

  /**
   * Opens (creating) the journal's directory {@code dir}; {@link #load} then reads it, skipping (and reporting to
   * {@code skipped}) every record that is corrupt, cut short or past {@code limits}.
   */
  static ApplicationJournal open(Path dir, StateLimits limits, SkippedRecords skipped) {
    try {
      Files.createDirectories(dir);
      try {
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
      } catch (UnsupportedOperationException e) {
        // not a POSIX file system: the directory keeps its own permissions
      }
      return new ApplicationJournal(dir.resolve(FILE), limits, skipped);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open the application journal in " + dir, e);
    }
  }

  /**
   * Reads the journal a line at a time, never holding more than one line (of at most {@link #maxLineBytes}): a
   * longer line, a corrupt one, a secret past the limit and an application past the number allowed are skipped and
   * reported; a last line cut short by a crash is reported and cut off the file, so that the next line written
   * starts a line of its own.
   */
  @Override
  public synchronized void load(Map<String, byte[]> secrets, Map<String, Long> removedAt) {
    try {
      if (Files.exists(file)) {
        long whole = read(secrets, removedAt);
        if (whole < Files.size(file)) {
          try (FileChannel c = FileChannel.open(file, StandardOpenOption.WRITE)) {
            c.truncate(whole);
            c.force(true);
          }
        }
      }
      out = append(file);
      compact(secrets, removedAt);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the application journal " + file, e);
    }
  }

  /** The longest line a journal within the limits holds: a registration of the longest id and secret. */
  static int maxLineBytes(StateLimits limits) {
    return 2 + b64Length(MAX_ID_BYTES) + 1 + Math.max(20, b64Length(limits.maxSecretBytes()));
  }

  private static int b64Length(int bytes) {
    return (bytes * 4 + 2) / 3;
  }

  /** Applies every whole line; returns where the last whole line ends. */
  private long read(Map<String, byte[]> secrets, Map<String, Long> removedAt) throws IOException {
    int maxLine = maxLineBytes(limits);
    byte[] line = new byte[maxLine];
    byte[] chunk = new byte[CHUNK];
    long offset = 0;
    long lineEnd = 0;
    long number = 0;
    int length = 0;
    boolean tooLong = false;
    try (InputStream in = Files.newInputStream(file)) {
      for (int n = in.read(chunk); n >= 0; n = in.read(chunk)) {
        for (int i = 0; i < n; i++) {
          byte b = chunk[i];
          if (b == '\n') {
            number++;
            if (tooLong) {
              skipped.skip(file, "line " + number, "longer than the " + maxLine + " bytes a line within the limits "
                  + "takes (" + ScacheOptions.MASTER_APPLICATION_SECRET_MAX.key() + ")");
            } else {
              String why = apply(new String(line, 0, length, StandardCharsets.US_ASCII), secrets, removedAt);
              if (why == null) {
                lines++;
              } else {
                skipped.skip(file, "line " + number, why);
              }
            }
            lineEnd = offset + i + 1;
            length = 0;
            tooLong = false;
          } else if (length < maxLine) {
            line[length++] = b;
          } else {
            tooLong = true;
          }
        }
        offset += n;
      }
    }
    if (offset > lineEnd) {
      skipped.skip(file, "line " + (number + 1), "cut short after " + (offset - lineEnd) + " bytes (a write a crash "
          + "interrupted); cut off the file");
    }
    return lineEnd;
  }

  /** Applies one journal line; null when applied, else why it is skipped (corrupt, or past a limit). */
  private String apply(String line, Map<String, byte[]> secrets, Map<String, Long> removedAt) {
    String[] f = line.split(" ");
    try {
      if (f.length == 3 && f[0].equals("R")) {
        String app = new String(UNB64.decode(f[1]), StandardCharsets.UTF_8);
        byte[] secret = UNB64.decode(f[2]);
        if (secret.length > limits.maxSecretBytes()) {
          return "a secret of " + secret.length + " bytes, over the limit of " + limits.maxSecretBytes() + " ("
              + ScacheOptions.MASTER_APPLICATION_SECRET_MAX.key() + ")";
        }
        if (!secrets.containsKey(app) && secrets.size() >= limits.maxApplications()) {
          return "an application past the " + limits.maxApplications() + " allowed ("
              + ScacheOptions.MASTER_APPLICATIONS_MAX.key() + ")";
        }
        secrets.put(app, secret);
        return null;
      }
      if (f.length == 3 && f[0].equals("X")) {
        String app = new String(UNB64.decode(f[1]), StandardCharsets.UTF_8);
        long at = Long.parseLong(f[2]);
        secrets.remove(app);
        removedAt.put(app, at);
        return null;
      }
      if (f.length == 2 && f[0].equals("F")) {
        removedAt.remove(new String(UNB64.decode(f[1]), StandardCharsets.UTF_8));
        return null;
      }
    } catch (IllegalArgumentException e) {
      return "not a journal record: " + e.getMessage();
    }
    return "not a journal record (" + f.length + " fields" + (f.length > 0 ? ", kind " + kind(f[0]) : "") + ")";
  }

  private static String kind(String field) {
    return field.length() == 1 ? field : field.length() + " characters";
  }

  @Override
  public void registered(String appId, byte[] secret) {
    write("R " + b64(appId) + " " + B64.encodeToString(secret));
  }

  @Override
  public void removed(String appId, long atMillis) {
    write("X " + b64(appId) + " " + atMillis);
  }

  @Override
  public void forgotten(String appId) {
    write("F " + b64(appId));
  }

  /** Rewrites the journal with these entries once its lines are several times their number. */
  @Override
  public void compact(Map<String, byte[]> secrets, Map<String, Long> removedAt) {
    if (lines > 4 * (secrets.size() + removedAt.size()) + 64) {
      rewrite(secrets, removedAt);
    }
  }

  /**
   * Rewrites the journal with exactly these entries (atomically: a new file renamed over the old), a line at a time,
   * so that a journal at the limits is not built in memory whole.
   */
  private synchronized void rewrite(Map<String, byte[]> secrets, Map<String, Long> removedAt) {
    try {
      Path tmp = file.resolveSibling(FILE + ".new");
      try (FileChannel c = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
          StandardOpenOption.WRITE)) {
        restrict(tmp);
        Writer w = new BufferedWriter(Channels.newWriter(c, StandardCharsets.US_ASCII), CHUNK);
        for (Map.Entry<String, byte[]> e : secrets.entrySet()) {
          w.write("R " + b64(e.getKey()) + " " + B64.encodeToString(e.getValue()) + "\n");
        }
        for (Map.Entry<String, Long> e : removedAt.entrySet()) {
          w.write("X " + b64(e.getKey()) + " " + e.getValue() + "\n");
        }
        w.flush();
        c.force(true);
      }
      out.close();
      Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      out = append(file);
      lines = secrets.size() + removedAt.size();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot rewrite " + file, e);
    }
  }

  private synchronized void write(String line) {
    try {
      out.write(ByteBuffer.wrap((line + "\n").getBytes(StandardCharsets.US_ASCII)));
      out.force(false);
      lines++;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write to " + file, e);
    }
  }

  private static FileChannel append(Path file) throws IOException {
    FileChannel c = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.APPEND);
    restrict(file);
    return c;
  }

  private static void restrict(Path file) throws IOException {
    try {
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    } catch (UnsupportedOperationException e) {
      // not a POSIX file system
    }
  }

  private static String b64(String s) {
    return B64.encodeToString(s.getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public synchronized void close() {
    try {
      if (out != null) {
        out.close();
      }
    } catch (IOException e) {
      // nothing more to keep
    }
  }
}
