package org.scache.benchmarks.spark;

import io.trino.tpcds.Options;
import io.trino.tpcds.Session;
import io.trino.tpcds.Table;
import io.trino.tpcds.TableGenerator;
import io.trino.tpcds.column.Column;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.scache.benchmarks.harness.netns.Directories;

/**
 * The TPC-DS tables, from the generator of {@code io.trino.tpcds} (the specification's dsdgen in Java):
 * each table's rows as {@code |}-separated text files, written once per scale factor and kept, and the
 * Spark schema each is read with (identifiers and integers as ints, decimals with their precision,
 * dates as dates, characters as strings).
 */
final class TpcdsTables {
  /** What a directory of generated tables holds when its generation finished. */
  private static final String DONE = "_GENERATED";

  private TpcdsTables() {}

  /** The tables the queries read: every base table but the generator's version table. */
  static List<Table> tables() {
    return Table.getBaseTables().stream().filter(t -> t != Table.DBGEN_VERSION).toList();
  }

  /**
   * Writes every table at {@code scale} into {@code dir} as {@code <table>.dat}, with {@code threads}
   * tables generated at once, unless an earlier call finished there; returns whether it generated.
   */
  static boolean generate(double scale, Path dir, int threads) throws IOException, InterruptedException {
    if (Files.exists(dir.resolve(DONE))) {
      return false;
    }
    Directories.deleteRecursively(dir);
    Files.createDirectories(dir);
    Options options = new Options();
    options.scale = scale;
    options.directory = dir.toString();
    options.doNotTerminate = true;
    options.overwrite = true;
    options.parallelism = 1;
    Session session = options.toSession();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> running = new ArrayList<>();
      // a parent table's generator writes its child (store_sales writes store_returns)
      for (Table table : tables()) {
        if (!table.isChild()) {
          running.add(pool.submit(() -> {
            new TableGenerator(session).generateTable(table);
            return null;
          }));
        }
      }
      for (Future<?> f : running) {
        try {
          f.get();
        } catch (java.util.concurrent.ExecutionException e) {
          throw new IOException("cannot generate TPC-DS data in " + dir, e.getCause());
        }
      }
    } finally {
      pool.shutdownNow();
      pool.awaitTermination(10, TimeUnit.SECONDS);
    }
    Files.writeString(dir.resolve(DONE), "scale " + scale + "\n", StandardCharsets.UTF_8);
    return true;
  }

  /** The generated files of {@code table} in {@code dir}. */
  static List<Path> files(Path dir, Table table) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> {
        String name = p.getFileName().toString();
        return name.endsWith(".dat") && (name.equals(table.getName() + ".dat")
            || name.startsWith(table.getName() + "_") && Character.isDigit(name.charAt(table.getName().length() + 1)));
      }).sorted().toList();
    }
  }

  /** The schema {@code table}'s files are read with. */
  static StructType schema(Table table) {
    List<StructField> fields = new ArrayList<>();
    for (Column c : table.getColumns()) {
      fields.add(new StructField(c.getName(), type(c), true, Metadata.empty()));
    }
    return new StructType(fields.toArray(new StructField[0]));
  }

  private static DataType type(Column c) {
    return switch (c.getType().getBase()) {
      case IDENTIFIER, INTEGER -> DataTypes.IntegerType;
      case DECIMAL -> DataTypes.createDecimalType(c.getType().getPrecision().orElseThrow(),
          c.getType().getScale().orElseThrow());
      case DATE -> DataTypes.DateType;
      case CHAR, VARCHAR, TIME -> DataTypes.StringType;
    };
  }

  /** The name the queries give {@code table}. */
  static String viewName(Table table) {
    return table.getName().toLowerCase(Locale.ROOT);
  }
}
