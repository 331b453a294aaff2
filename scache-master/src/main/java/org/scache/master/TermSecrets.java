package org.scache.master;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.scache.common.ScacheException;
import org.scache.common.auth.RequestAuthorizer;
import org.scache.common.protocol.Status;

/** The secrets of the applications registered with the leading term: none while this master does not lead. */
final class TermSecrets implements RequestAuthorizer.Secrets {
  private final Supplier<Optional<MasterTerm>> leading;

  TermSecrets(Supplier<Optional<MasterTerm>> leading) {
    this.leading = leading;
  }

  @Override
  public Optional<byte[]> known(String appId) {
    return Optional.empty();
  }

  @Override
  public CompletableFuture<byte[]> lookup(String appId) {
    try {
      MasterTerm term = leading.get().orElseThrow(() -> new ScacheException(Status.NOT_LEADER,
          "this master does not lead; find the leader in ZooKeeper"));
      return CompletableFuture.completedFuture(term.applications.requireSecret(appId));
    } catch (ScacheException e) {
      return CompletableFuture.failedFuture(e);
    }
  }
}
