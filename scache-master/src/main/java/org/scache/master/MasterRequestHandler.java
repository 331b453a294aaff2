package org.scache.master;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
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
  private final ScacheMaster master;
  private final byte[] clusterSecret;

  MasterRequestHandler(ScacheMaster master, byte[] clusterSecret) {
    this.master = master;
    this.clusterSecret = clusterSecret.clone();
  }

  @Override
  protected void onRequest(ChannelHandlerContext ctx, InboundFrame frame) {
    Message m = frame.message();
    Message answer = switch (m.type()) {
      case REGISTER_WORKER -> {
        requireCluster(frame);
        yield master.registerWorker((Message.RegisterWorker) m);
      }
      case HEARTBEAT -> {
        requireCluster(frame);
        yield master.heartbeat((Message.Heartbeat) m);
      }
      case REPORT_BLOCKS -> {
        requireCluster(frame);
        yield master.reportBlocks((Message.ReportBlocks) m);
      }
      case FETCH_APP_SECRET -> {
        requireCluster(frame);
        yield new Message.AppSecret(master.applications().requireSecret(((Message.FetchAppSecret) m).appId()));
      }
      case LOCATE_BLOCKS -> {
        Message.LocateBlocks l = (Message.LocateBlocks) m;
        requireApplication(frame, l.appId());
        yield master.locate(l);
      }
      case REGISTER_APPLICATION -> {
        Message.RegisterApplication r = (Message.RegisterApplication) m;
        if (!isCluster(frame) && !frame.verify(r.appId(), r.secret())) {
          throw new ScacheException(frame.auth().isEmpty() ? Status.AUTH_REQUIRED : Status.AUTH_FAILED,
              "REGISTER_APPLICATION must be signed with the secret it registers");
        }
        master.applications().register(r.appId(), r.secret());
        yield new Message.Ack();
      }
      case REGISTER_SHUFFLE -> {
        Message.RegisterShuffle r = (Message.RegisterShuffle) m;
        requireApplication(frame, r.appId());
        yield master.registerShuffle(r);
      }
      case MAP_FINISHED -> {
        Message.MapFinished r = (Message.MapFinished) m;
        requireApplication(frame, r.appId());
        yield master.mapFinished(r);
      }
      case REPORT_SAMPLES -> {
        Message.ReportSamples r = (Message.ReportSamples) m;
        requireApplication(frame, r.appId());
        yield master.reportSamples(r);
      }
      case GET_SCHEDULE_RESULT -> {
        Message.GetScheduleResult r = (Message.GetScheduleResult) m;
        requireApplication(frame, r.appId());
        yield master.scheduleResult(r);
      }
      case UNREGISTER_SHUFFLE -> {
        Message.UnregisterShuffle r = (Message.UnregisterShuffle) m;
        requireApplication(frame, r.appId());
        yield master.unregisterShuffle(r);
      }
      case REMOVE_APPLICATION -> {
        Message.RemoveApplication r = (Message.RemoveApplication) m;
        requireApplication(frame, r.appId());
        yield master.removeApplication(r.appId());
      }
      case REPORT_ROUNDS -> {
        requireCluster(frame);
        yield master.reportRounds((Message.ReportRounds) m);
      }
      case REPORT_LOST_BLOCKS -> {
        requireCluster(frame);
        yield master.reportLostBlocks((Message.ReportLostBlocks) m);
      }
      case REDUCE_COMMITTED -> {
        Message.ReduceCommitted r = (Message.ReduceCommitted) m;
        requireApplication(frame, r.appId());
        yield master.reduceCommitted(r);
      }
      case LIST_WORKERS -> new Message.Workers(master.workers().live());
      default -> throw new ScacheException(Status.UNKNOWN_MESSAGE_TYPE, m.type() + " is not served by the master");
    };
    reply(ctx, frame.requestId(), answer);
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

  private void requireApplication(InboundFrame frame, String appId) {
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
    if (!frame.verify(appId, master.applications().requireSecret(appId))) {
      throw new ScacheException(Status.AUTH_FAILED, "wrong proof for " + appId);
    }
  }
}
