package org.scache.master;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;
import java.util.Map;

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

  private final Path file;
  private FileChannel out;
  private int lines;

  private ApplicationJournal(Path file, FileChannel out, int lines) {
    this.file = file;
    this.out = out;
    this.lines = lines;
  }

  /** Opens (creating) the journal's directory {@code dir}; {@link #load} then reads it. */
  static ApplicationJournal open(Path dir) {
    try {
      Files.createDirectories(dir);
      try {
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
      } catch (UnsupportedOperationException e) {
        // not a POSIX file system: the directory keeps its own permissions
      }
      return new ApplicationJournal(dir.resolve(FILE), null, 0);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open the application journal in " + dir, e);
    }
  }

  @Override
  public synchronized void load(Map<String, byte[]> secrets, Map<String, Long> removedAt) {
    try {
      if (Files.exists(file)) {
        for (String line : Files.readAllLines(file, StandardCharsets.US_ASCII)) {
          if (apply(line, secrets, removedAt)) {
            lines++;
          }
        }
      }
      out = append(file);
      compact(secrets, removedAt);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the application journal " + file, e);
    }
  }

  /** Applies one journal line; false for a line that is not whole (a write cut by a crash). */
  private static boolean apply(String line, Map<String, byte[]> secrets, Map<String, Long> removedAt) {
    String[] f = line.split(" ");
    try {
      if (f.length == 3 && f[0].equals("R")) {
        String app = new String(UNB64.decode(f[1]), StandardCharsets.UTF_8);
        secrets.put(app, UNB64.decode(f[2]));
        return true;
      }
      if (f.length == 3 && f[0].equals("X")) {
        String app = new String(UNB64.decode(f[1]), StandardCharsets.UTF_8);
        secrets.remove(app);
        removedAt.put(app, Long.parseLong(f[2]));
        return true;
      }
      if (f.length == 2 && f[0].equals("F")) {
        removedAt.remove(new String(UNB64.decode(f[1]), StandardCharsets.UTF_8));
        return true;
      }
    } catch (IllegalArgumentException e) {
      // a torn last line
    }
    return false;
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

  /** Rewrites the journal with exactly these entries (atomically: a new file renamed over the old). */
  private synchronized void rewrite(Map<String, byte[]> secrets, Map<String, Long> removedAt) {
    try {
      Path tmp = file.resolveSibling(FILE + ".new");
      StringBuilder sb = new StringBuilder();
      secrets.forEach((app, secret) -> sb.append("R ").append(b64(app)).append(' ')
          .append(B64.encodeToString(secret)).append('\n'));
      removedAt.forEach((app, at) -> sb.append("X ").append(b64(app)).append(' ').append(at).append('\n'));
      try (FileChannel c = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
          StandardOpenOption.WRITE)) {
        restrict(tmp);
        c.write(ByteBuffer.wrap(sb.toString().getBytes(StandardCharsets.US_ASCII)));
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
