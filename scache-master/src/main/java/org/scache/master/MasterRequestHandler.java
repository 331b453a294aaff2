package org.scache.master;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import java.util.Optional;
import java.util.function.Supplier;
import org.scache.common.ScacheException;
import org.scache.common.auth.Credentials;
import org.scache.common.network.RequestDispatcher;
import org.scache.common.protocol.InboundFrame;
import org.scache.common.protocol.Message;
import org.scache.common.protocol.Status;

/**
 * Serves connections to the master. Worker traffic must be signed with the cluster secret;
 * application requests with the application's secret (or the cluster's, when a worker forwards).
 */
@ChannelHandler.Sharable
final class MasterRequestHandler extends RequestDispatcher {
  private final Supplier<Optional<MasterTerm>> leading;
  private final byte[] clusterSecret;

  /** Serves over the term {@code leading} gives, and answers NOT_LEADER while it gives none. */
  MasterRequestHandler(Supplier<Optional<MasterTerm>> leading, byte[] clusterSecret) {
    this.leading = leading;
    this.clusterSecret = clusterSecret.clone();
  }

  @Override
  protected void onRequest(ChannelHandlerContext ctx, InboundFrame frame) {
    MasterTerm term = leading.get().orElseThrow(() -> new ScacheException(Status.NOT_LEADER,
        "this master does not lead; find the leader in ZooKeeper"));
    authorize(frame, term.applications);
    reply(ctx, frame.requestId(), term.requests.serve(frame.message()));
  }

  private void authorize(InboundFrame frame, ApplicationRegistry applications) {
    Message m = frame.message();
    switch (m.type()) {
      case REGISTER_WORKER, HEARTBEAT, REPORT_BLOCKS, FETCH_APP_SECRET, REPORT_ROUNDS, REPORT_LOST_BLOCKS,
          REPORT_WORKER_ACTIVITY ->
          requireCluster(frame);
      case LOCATE_BLOCKS -> requireApplication(frame, applications, ((Message.LocateBlocks) m).appId());
      case REGISTER_APPLICATION -> {
        Message.RegisterApplication r = (Message.RegisterApplication) m;
        if (r.secret().length == 0) {
          throw new ScacheException(Status.INVALID_ARGUMENT, "application " + r.appId() + " registers an empty secret");
        }
        if (!isCluster(frame) && !frame.verify(r.appId(), r.secret())) {
          throw new ScacheException(frame.auth().isEmpty() ? Status.AUTH_REQUIRED : Status.AUTH_FAILED,
              "REGISTER_APPLICATION must be signed with the secret it registers");
        }
      }
      case REGISTER_SHUFFLE -> requireApplication(frame, applications, ((Message.RegisterShuffle) m).appId());
      case MAP_FINISHED -> requireApplication(frame, applications, ((Message.MapFinished) m).appId());
      case REPORT_SAMPLES -> requireApplication(frame, applications, ((Message.ReportSamples) m).appId());
      case GET_SCHEDULE_RESULT -> requireApplication(frame, applications, ((Message.GetScheduleResult) m).appId());
      case UNREGISTER_SHUFFLE -> requireApplication(frame, applications, ((Message.UnregisterShuffle) m).appId());
      case REMOVE_APPLICATION -> requireApplication(frame, applications, ((Message.RemoveApplication) m).appId());
      case REDUCE_COMMITTED -> requireApplication(frame, applications, ((Message.ReduceCommitted) m).appId());
      case LIST_WORKERS -> { }
      default -> throw new ScacheException(Status.UNKNOWN_MESSAGE_TYPE, m.type() + " is not served by the master");
    }
  }

  private boolean isCluster(InboundFrame frame) {
    return frame.auth().isPresent() && frame.auth().get().principal().equals(Credentials.CLUSTER)
        && frame.verify(Credentials.CLUSTER, clusterSecret);
  }

  private void requireCluster(InboundFrame frame) {
    if (frame.auth().isEmpty()) {
      throw new ScacheException(Status.AUTH_REQUIRED, frame.message().type() + " is for SCache daemons only");
    }
    if (!isCluster(frame)) {
      throw new ScacheException(Status.AUTH_FAILED, frame.message().type() + " has a wrong cluster proof");
    }
  }

  private void requireApplication(InboundFrame frame, ApplicationRegistry applications, String appId) {
    if (frame.auth().isEmpty()) {
      throw new ScacheException(Status.AUTH_REQUIRED, frame.message().type() + " for " + appId + " carries no proof");
    }
    String principal = frame.auth().get().principal();
    if (principal.equals(Credentials.CLUSTER)) {
      requireCluster(frame);
      return;
    }
    if (!principal.equals(appId)) {
      throw new ScacheException(Status.AUTH_FAILED, "a request signed by " + principal + " cannot act for " + appId);
    }
    if (!frame.verify(appId, applications.requireSecret(appId))) {
      throw new ScacheException(Status.AUTH_FAILED, "wrong proof for " + appId);
    }
  }
}
