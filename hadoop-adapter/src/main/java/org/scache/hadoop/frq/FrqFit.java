package org.scache.hadoop.frq;

/**
 * One finished job and the FRQ model fitted from it, with what the model says the job takes on either
 * shuffle: the job's measured start (submission to its first map) plus the model's job time.
 */
public record FrqFit(FrqJob job, FrqModel model) {

  /** {@code job} fitted with {@code shuffleSpeed}, the shuffle's bytes per second its network carries. */
  public static FrqFit of(FrqJob job, double shuffleSpeed) {
    return new FrqFit(job, job.fit(shuffleSpeed));
  }

  /** The job's measured start, and the model's job time after it, on the shuffle it ran on. */
  public double predictedSeconds() {
    return predictedSeconds(job.shuffle());
  }

  /** What the model says this job would take on {@code shuffle}, its measured start included. */
  public double predictedSeconds(Shuffle shuffle) {
    return job.startSeconds() + model.jobSeconds(shuffle);
  }

  /** What the model says this job would take on {@code shuffle} with {@code k} for K, its measured start included. */
  public double predictedSeconds(Shuffle shuffle, double k) {
    return job.startSeconds() + model.jobSeconds(shuffle, k);
  }

  /** (predicted − measured) / measured. */
  public double error() {
    return (predictedSeconds() - job.jobSeconds()) / job.jobSeconds();
  }

  /** (predicted − measured) / measured, with {@code k} for K. */
  public double error(double k) {
    return (predictedSeconds(job.shuffle(), k) - job.jobSeconds()) / job.jobSeconds();
  }

  /** (predicted − measured) / measured in the paper's model, without the launch term. */
  public double paperModelError() {
    return (job.startSeconds() + model.withoutLaunch().jobSeconds(job.shuffle()) - job.jobSeconds())
        / job.jobSeconds();
  }

  /**
   * The K this job showed: how much of the model's overlap ({@code T_P_shuffle}) its reduce phase waited
   * beyond the reduces' launch and own work,
   * {@code (measured − start − T_map − rounds × T_launch − D × R / V_reduce) / T_P_shuffle}.
   */
  public double observedK() {
    return waitedSeconds() / model.overlapSeconds(job.shuffle());
  }

  /** How long the job's reduce phase took beyond the reduces' launch and own work. */
  public double waitedSeconds() {
    return job.jobSeconds() - job.startSeconds() - model.mapSeconds() - model.launchSeconds()
        - model.reduceWorkSeconds();
  }

  /** SCache's job time over Hadoop's as the model predicts it from this job, with the paper's K. */
  public double predictedRatio() {
    return predictedRatio(FrqModel.K_HADOOP, FrqModel.K_SCACHE);
  }

  /** SCache's job time over Hadoop's as the model predicts it from this job,
      with {@code kHadoop} and {@code kScache}. */
  public double predictedRatio(double kHadoop, double kScache) {
    return predictedSeconds(Shuffle.SCACHE, kScache) / predictedSeconds(Shuffle.HADOOP, kHadoop);
  }
}
