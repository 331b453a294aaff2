package org.scache.hadoop.appmaster;

import java.io.Closeable;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.mapreduce.v2.app.AppContext;
import org.apache.hadoop.mapreduce.v2.app.launcher.ContainerLauncherImpl;
import org.apache.hadoop.yarn.api.ContainerManagementProtocol;
import org.apache.hadoop.yarn.api.protocolrecords.StartContainersResponse;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.client.api.impl.ContainerManagementProtocolProxy.ContainerManagementProtocolProxyData;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hadoop's container launcher, which also keeps the auxiliary service metadata every NodeManager
 * returns when it starts a container of the job: that is how the application master learns which
 * SCache worker runs in which NodeManager ({@link NodeWorkers}). The stock launcher reads only the
 * MapReduce shuffle port from that answer; the connection it uses is wrapped so that the answer
 * is seen as it passes. Nothing else about launching changes.
 */
final class ServiceMetadataRecordingLauncher extends ContainerLauncherImpl {
  private static final Logger LOG = LoggerFactory.getLogger(ServiceMetadataRecordingLauncher.class);

  private final NodeWorkers nodeWorkers;
  private final Field protocolField;

  ServiceMetadataRecordingLauncher(AppContext context, NodeWorkers nodeWorkers) {
    super(context);
    this.nodeWorkers = nodeWorkers;
    this.protocolField = protocolField();
  }

  @Override
  public ContainerManagementProtocolProxyData getCMProxy(String containerMgrBindAddr, ContainerId containerId)
      throws IOException {
    ContainerManagementProtocolProxyData data = super.getCMProxy(containerMgrBindAddr, containerId);
    if (protocolField != null) {
      try {
        ContainerManagementProtocol protocol = (ContainerManagementProtocol) protocolField.get(data);
        if (!Proxy.isProxyClass(protocol.getClass())
            || !(Proxy.getInvocationHandler(protocol) instanceof Recording)) {
          protocolField.set(data, Proxy.newProxyInstance(getClass().getClassLoader(),
              new Class<?>[] {ContainerManagementProtocol.class, Closeable.class},
              new Recording(protocol, NodeId.fromString(containerMgrBindAddr))));
        }
      } catch (ReflectiveOperationException | IllegalArgumentException e) {
        LOG.warn("cannot watch container starts on {}: {}", containerMgrBindAddr, e.toString());
      }
    }
    return data;
  }

  private static Field protocolField() {
    try {
      Field f = ContainerManagementProtocolProxyData.class.getDeclaredField("proxy");
      f.setAccessible(true);
      return f;
    } catch (ReflectiveOperationException | RuntimeException e) {
      LOG.warn("this Hadoop version hides the NodeManager connection; reduces are placed by host name only: {}",
          e.toString());
      return null;
    }
  }

  /** Passes every call on, and keeps the service metadata of container starts; closing closes the connection. */
  private final class Recording implements InvocationHandler {
    private final ContainerManagementProtocol target;
    private final NodeId node;

    Recording(ContainerManagementProtocol target, NodeId node) {
      this.target = target;
      this.node = node;
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
      if (method.getDeclaringClass() == Closeable.class) {
        if (target instanceof Closeable c) {
          c.close();
        } else {
          RPC.stopProxy(target);
        }
        return null;
      }
      Object result;
      try {
        result = method.invoke(target, args);
      } catch (InvocationTargetException e) {
        throw e.getCause();
      }
      if (result instanceof StartContainersResponse started) {
        nodeWorkers.recordServiceMetadata(node, started.getAllServicesMetaData());
      }
      return result;
    }
  }
}
