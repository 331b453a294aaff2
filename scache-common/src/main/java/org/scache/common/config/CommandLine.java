package org.scache.common.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The command line every SCache daemon takes: {@code [--conf FILE]}; anything else is an error. */
public final class CommandLine {
  private CommandLine() {}

  /** The configuration the arguments name (empty without {@code --conf}); exits with usage on bad arguments. */
  public static ScacheConf confFrom(String[] args, String program) throws IOException {
    if (args.length == 0) {
      return ScacheConf.empty();
    }
    if (args.length == 2 && args[0].equals("--conf")) {
      Path file = Path.of(args[1]);
      if (!Files.isReadable(file)) {
        usage(program, "cannot read configuration file " + file);
      }
      return ScacheConf.load(file);
    }
    usage(program, "unexpected arguments: " + String.join(" ", args));
    return ScacheConf.empty();
  }

  private static void usage(String program, String problem) {
    System.err.println(program + ": " + problem);
    System.err.println("usage: " + program + " [--conf scache.properties]   (and -Dscache.key=value JVM options)");
    System.exit(2);
  }
}
