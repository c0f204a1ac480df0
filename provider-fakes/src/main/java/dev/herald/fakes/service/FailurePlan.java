package dev.herald.fakes.service;

import dev.herald.fakes.model.ArmedFailure;
import dev.herald.fakes.model.FailureKind;
import dev.herald.fakes.model.FakeRequest;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

/**
 * The failures armed through the control API, in the order they were armed. A request consumes one use of the
 * first armed failure that matches it and that its platform can act on; a used-up failure disappears.
 */
@ApplicationScoped
public class FailurePlan {
    private final List<ArmedFailure> armed = new CopyOnWriteArrayList<>();

    public ArmedFailure arm(ArmedFailure failure) {
        armed.add(failure);
        return failure;
    }

    /** The failure this request meets, or null. {@code applicable} says which kinds the request's platform can act on here. */
    public ArmedFailure take(FakeRequest request, Predicate<FailureKind> applicable) {
        for (ArmedFailure failure : armed) {
            if (failure.matches(request) && applicable.test(failure.getKind()) && failure.take()) {
                if (failure.usedUp()) {
                    armed.remove(failure);
                }
                return failure;
            }
        }
        return null;
    }

    public List<ArmedFailure> armed(String platform) {
        return armed.stream()
                .filter(failure -> platform == null || failure.getPlatform().equals(platform))
                .toList();
    }

    public void disarm(String platform) {
        armed.removeIf(failure -> platform == null || failure.getPlatform().equals(platform));
    }
}
