package org.scache.tez;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.tez.dag.api.EdgeManagerPluginDescriptor;
import org.apache.tez.dag.api.EdgeProperty;
import org.apache.tez.dag.api.UserPayload;
import org.apache.tez.dag.api.VertexLocationHint;
import org.apache.tez.dag.api.VertexManagerPluginContext;
import org.apache.tez.dag.api.event.VertexState;
import org.apache.tez.runtime.api.InputSpecUpdate;
import org.apache.tez.runtime.api.VertexStatistics;
import org.apache.tez.runtime.api.events.CustomProcessorEvent;
import org.apache.tez.runtime.api.events.InputDataInformationEvent;

/** A vertex manager context that passes every call on to the framework's; subclasses change some of them. */
abstract class DelegatingVertexManagerContext implements VertexManagerPluginContext {
  protected final VertexManagerPluginContext framework;

  DelegatingVertexManagerContext(VertexManagerPluginContext framework) {
    this.framework = framework;
  }

  @Override
  public Map<String, EdgeProperty> getInputVertexEdgeProperties() {
    return framework.getInputVertexEdgeProperties();
  }

  @Override
  public Map<String, EdgeProperty> getOutputVertexEdgeProperties() {
    return framework.getOutputVertexEdgeProperties();
  }

  @Override
  public VertexStatistics getVertexStatistics(String vertexName) {
    return framework.getVertexStatistics(vertexName);
  }

  @Override
  public String getVertexName() {
    return framework.getVertexName();
  }

  @Override
  public UserPayload getUserPayload() {
    return framework.getUserPayload();
  }

  @Override
  public int getVertexNumTasks(String vertexName) {
    return framework.getVertexNumTasks(vertexName);
  }

  @Override
  public Resource getVertexTaskResource() {
    return framework.getVertexTaskResource();
  }

  @Override
  public Resource getTotalAvailableResource() {
    return framework.getTotalAvailableResource();
  }

  @Override
  public int getNumClusterNodes() {
    return framework.getNumClusterNodes();
  }

  @Override
  @Deprecated
  public void setVertexParallelism(int parallelism, VertexLocationHint locationHint,
      Map<String, EdgeManagerPluginDescriptor> sourceEdgeManagers, Map<String, InputSpecUpdate> rootInputSpecUpdate) {
    framework.setVertexParallelism(parallelism, locationHint, sourceEdgeManagers, rootInputSpecUpdate);
  }

  @Override
  public void reconfigureVertex(int parallelism, VertexLocationHint locationHint,
      Map<String, EdgeProperty> sourceEdgeProperties, Map<String, InputSpecUpdate> rootInputSpecUpdate) {
    framework.reconfigureVertex(parallelism, locationHint, sourceEdgeProperties, rootInputSpecUpdate);
  }

  @Override
  public void reconfigureVertex(int parallelism, VertexLocationHint locationHint,
      Map<String, EdgeProperty> sourceEdgeProperties) {
    framework.reconfigureVertex(parallelism, locationHint, sourceEdgeProperties);
  }

  @Override
  public void reconfigureVertex(Map<String, InputSpecUpdate> rootInputSpecUpdate, VertexLocationHint locationHint,
      int parallelism) {
    framework.reconfigureVertex(rootInputSpecUpdate, locationHint, parallelism);
  }

  @Override
  public void addRootInputEvents(String inputName, Collection<InputDataInformationEvent> events) {
    framework.addRootInputEvents(inputName, events);
  }

  @Override
  public void sendEventToProcessor(Collection<CustomProcessorEvent> events, int taskId) {
    framework.sendEventToProcessor(events, taskId);
  }

  @Override
  @Deprecated
  public void scheduleVertexTasks(List<TaskWithLocationHint> tasks) {
    framework.scheduleVertexTasks(tasks);
  }

  @Override
  public void scheduleTasks(List<ScheduleTaskRequest> tasks) {
    framework.scheduleTasks(tasks);
  }

  @Override
  public Set<String> getVertexInputNames() {
    return framework.getVertexInputNames();
  }

  @Override
  public void setVertexLocationHint(VertexLocationHint locationHint) {
    framework.setVertexLocationHint(locationHint);
  }

  @Override
  public int getDAGAttemptNumber() {
    return framework.getDAGAttemptNumber();
  }

  @Override
  public void registerForVertexStateUpdates(String vertexName, Set<VertexState> stateSet) {
    framework.registerForVertexStateUpdates(vertexName, stateSet);
  }

  @Override
  public void vertexReconfigurationPlanned() {
    framework.vertexReconfigurationPlanned();
  }

  @Override
  public void doneReconfiguringVertex() {
    framework.doneReconfiguringVertex();
  }

  @Override
  public Map<String, List<String>> getInputVertexGroups() {
    return framework.getInputVertexGroups();
  }
}
