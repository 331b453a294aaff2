package org.scache.hadoop.appmaster;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.util.StringUtils;

/**
 * Gives the application master the named cache files a task finds in its working directory: every cache file
 * added with a link name ({@code uri#name}, as TeraSort adds {@code _partition.lst}) is copied to that name in
 * the working directory, unless something is already there. Files without a link name are left alone; a
 * partitioner that reads one by its full path reads it from its file system.
 */
final class CacheFileLinks {
  private final JobConf conf;
  private final File workingDirectory;

  CacheFileLinks(JobConf conf) {
    this(conf, new File(System.getProperty("user.dir")));
  }

  CacheFileLinks(JobConf conf, File workingDirectory) {
    this.conf = conf;
    this.workingDirectory = workingDirectory;
  }

  void linkIntoWorkingDirectory() throws IOException {
    // the job's cache files as Job.getCacheFiles reads them, which Hadoop 3.3 has not as a static method
    URI[] files = StringUtils.stringToURI(conf.getStrings(MRJobConfig.CACHE_FILES));
    if (files == null) {
      return;
    }
    for (URI uri : files) {
      String name = uri.getFragment();
      if (name == null || name.isEmpty() || name.contains("/") || name.equals("..")) {
        continue;
      }
      File target = new File(workingDirectory, name);
      if (target.exists()) {
        continue;
      }
      Path source = new Path(uri.getScheme(), uri.getAuthority(), uri.getPath());
      FileSystem fs = source.getFileSystem(conf);
      FileUtil.copy(fs, source, target, false, conf);
    }
  }
}
