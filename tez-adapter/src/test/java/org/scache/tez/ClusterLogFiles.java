package org.scache.tez;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;

/**
 * The log files of a running mini cluster, read while its NodeManagers create and remove the containers'
 * directories: what disappears while the directories are walked or before a file is read is passed over.
 */
final class ClusterLogFiles {
  private ClusterLogFiles() {}

  /** The files under {@code root} whose names start with {@code prefix}. */
  static List<Path> named(Path root, String prefix) throws IOException {
    List<Path> files = new ArrayList<>();
    Files.walkFileTree(root, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
        if (attrs.isRegularFile() && file.getFileName().toString().startsWith(prefix)) {
          files.add(file);
        }
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFileFailed(Path file, IOException e) {
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult postVisitDirectory(Path dir, IOException e) {
        return FileVisitResult.CONTINUE;
      }
    });
    return files;
  }

  /** The file's text, or empty when it was removed since it was listed. */
  static String text(Path file) throws IOException {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      return "";
    }
  }

  /** The file's lines, or none when it was removed since it was listed. */
  static List<String> lines(Path file) throws IOException {
    String text = text(file);
    return text.isEmpty() ? List.of() : text.lines().toList();
  }
}
