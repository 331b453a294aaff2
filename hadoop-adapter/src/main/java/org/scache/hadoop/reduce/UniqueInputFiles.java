package org.scache.hadoop.reduce;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.MapOutputFile;
import org.apache.hadoop.mapreduce.TaskID;

/**
 * The task's MapOutputFile, except that every reduce-side input file gets a name of its own. Hadoop
 * names them after the map alone, which is unique with its fetcher (one output per map); with SCache
 * a map that spilled gives a reduce several runs, and two of them on disk must not share a file.
 */
final class UniqueInputFiles extends MapOutputFile {
  private final MapOutputFile files;
  private final AtomicLong sequence = new AtomicLong();

  UniqueInputFiles(MapOutputFile files) {
    this.files = files;
  }

  @Override
  public Path getInputFileForWrite(TaskID mapId, long size) throws IOException {
    return files.getInputFileForWrite(mapId, size).suffix(".run" + sequence.incrementAndGet());
  }

  @Override
  public void setConf(Configuration conf) {
    files.setConf(conf);
  }

  @Override
  public Configuration getConf() {
    return files.getConf();
  }

  @Override
  public Path getOutputFile() throws IOException {
    return files.getOutputFile();
  }

  @Override
  public Path getOutputFileForWrite(long size) throws IOException {
    return files.getOutputFileForWrite(size);
  }

  @Override
  public Path getOutputFileForWriteInVolume(Path existing) {
    return files.getOutputFileForWriteInVolume(existing);
  }

  @Override
  public Path getOutputIndexFile() throws IOException {
    return files.getOutputIndexFile();
  }

  @Override
  public Path getOutputIndexFileForWrite(long size) throws IOException {
    return files.getOutputIndexFileForWrite(size);
  }

  @Override
  public Path getOutputIndexFileForWriteInVolume(Path existing) {
    return files.getOutputIndexFileForWriteInVolume(existing);
  }

  @Override
  public Path getSpillFile(int spillNumber) throws IOException {
    return files.getSpillFile(spillNumber);
  }

  @Override
  public Path getSpillFileForWrite(int spillNumber, long size) throws IOException {
    return files.getSpillFileForWrite(spillNumber, size);
  }

  @Override
  public Path getSpillIndexFile(int spillNumber) throws IOException {
    return files.getSpillIndexFile(spillNumber);
  }

  @Override
  public Path getSpillIndexFileForWrite(int spillNumber, long size) throws IOException {
    return files.getSpillIndexFileForWrite(spillNumber, size);
  }

  @Override
  public Path getInputFile(int mapId) throws IOException {
    return files.getInputFile(mapId);
  }

  @Override
  public void removeAll() throws IOException {
    files.removeAll();
  }
}
