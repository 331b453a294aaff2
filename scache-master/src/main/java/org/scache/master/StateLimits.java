package org.scache.master;

import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;

/**
 * The limits on what a master holds of applications and shuffles, applied alike when a request would add to its
 * state and when a restarted master reads its kept state back, so that whatever a master accepted, the next one can
 * load: the longest application secret, the applications registered at once, and the frame metadata limit, which
 * bounds a shuffle's placement (it is answered in one frame) and each kept record.
 */
record StateLimits(int maxSecretBytes, int maxApplications, int maxFrameMetaBytes) {
  /** The limits of the default configuration. */
  static final StateLimits DEFAULTS = from(ScacheConf.empty());

  StateLimits {
    if (maxSecretBytes < 1 || maxApplications < 1 || maxFrameMetaBytes < 1) {
      throw new IllegalArgumentException("state limits must be positive: " + maxSecretBytes + ", " + maxApplications
          + ", " + maxFrameMetaBytes);
    }
  }

  static StateLimits from(ScacheConf conf) {
    return new StateLimits(conf.get(ScacheOptions.MASTER_APPLICATION_SECRET_MAX),
        conf.get(ScacheOptions.MASTER_APPLICATIONS_MAX), conf.get(ScacheOptions.NETWORK_FRAME_META_MAX));
  }
}
