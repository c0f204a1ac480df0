package dev.herald.common.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import dev.herald.common.api.ApiError;
import dev.herald.common.api.ApiException;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.api.ErrorEnvelope;
import dev.herald.common.api.LimitRefusal;
import dev.herald.common.persistence.DatabaseUnavailable;
import jakarta.ws.rs.NotAllowedException;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.NotSupportedException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Map;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * Turns every failure of a JAX-RS resource into the error envelope. Nothing escapes as a framework page
 * or a stack trace: an unreachable database is {@code 503 service_unavailable} (clients retry); other unexpected
 * exceptions are logged with the request id and answered with {@code 500 internal_error}.
 */
public class ApiExceptionMappers {
    private static final Logger LOG = Logger.getLogger(ApiExceptionMappers.class);

    @ServerExceptionMapper
    public Response apiException(ApiException e, HttpHeaders headers) {
        Response.ResponseBuilder response = Response.status(e.code().httpStatus())
                .type(MediaType.APPLICATION_JSON_TYPE)
                .entity(new ErrorEnvelope(e.toApiError(), requestId(headers)));
        e.headers().forEach(response::header);
        if (LimitRefusal.is(e.code())) {
            response.header(LimitRefusal.HEADER, "true");
        }
        return response.build();
    }

    @ServerExceptionMapper
    public Response malformedJson(JsonProcessingException e, HttpHeaders headers) {
        if (e instanceof StreamConstraintsException) {
            return error(ErrorCode.INVALID_REQUEST, "The JSON body is nested too deeply.", headers);
        }
        return error(ErrorCode.INVALID_REQUEST, "The request body is not valid JSON.", headers);
    }

    /**
     * A body Jackson parsed but refused to bind: a key repeated in one object, or text after the top-level value.
     * Without this mapper Quarkus's own, more specific one answers these with a bare 400 and no envelope.
     */
    @ServerExceptionMapper
    public Response unboundJson(MismatchedInputException e, HttpHeaders headers) {
        String reason = e.getOriginalMessage() == null ? "" : e.getOriginalMessage();
        if (reason.startsWith("Duplicate field")) {
            return error(
                    ErrorCode.INVALID_REQUEST,
                    "The request body is not valid JSON: an object names the same key twice.",
                    headers);
        }
        if (reason.startsWith("Trailing token")) {
            return error(
                    ErrorCode.INVALID_REQUEST,
                    "The request body is not valid JSON: text follows its JSON value.",
                    headers);
        }
        return error(ErrorCode.INVALID_REQUEST, "The request body is not valid JSON.", headers);
    }

    @ServerExceptionMapper
    public Response notFound(NotFoundException e, HttpHeaders headers) {
        return error(ErrorCode.NOT_FOUND, "No such route.", headers);
    }

    @ServerExceptionMapper
    public Response notAllowed(NotAllowedException e, HttpHeaders headers) {
        return error(ErrorCode.METHOD_NOT_ALLOWED, "This route does not support that method.", headers);
    }

    @ServerExceptionMapper
    public Response unsupportedMediaType(NotSupportedException e, HttpHeaders headers) {
        return error(ErrorCode.UNSUPPORTED_MEDIA_TYPE, "The request body must be application/json.", headers);
    }

    @ServerExceptionMapper
    public Response webApplication(WebApplicationException e, HttpHeaders headers) {
        int status = e.getResponse() == null ? 500 : e.getResponse().getStatus();
        if (status >= 500) {
            LOG.errorf(e, "request %s failed", requestId(headers));
            return error(ErrorCode.INTERNAL_ERROR, "Something went wrong on our side.", headers);
        }
        // Quarkus's JSON reader wraps some parse failures (text after the value) in a plain 400.
        if (e.getCause() instanceof MismatchedInputException unbound) {
            return unboundJson(unbound, headers);
        }
        if (e.getCause() instanceof JsonProcessingException malformed) {
            return malformedJson(malformed, headers);
        }
        ErrorCode code = ErrorCode.forStatus(status);
        String message = switch (code) {
            case PAYLOAD_TOO_LARGE -> "The request body is larger than 1 MiB.";
            case INVALID_REQUEST -> "The request could not be read.";
            default -> "The request could not be served.";
        };
        return Response.status(status)
                .type(MediaType.APPLICATION_JSON_TYPE)
                .entity(new ErrorEnvelope(new ApiError(code.code(), message, Map.of()), requestId(headers)))
                .build();
    }

    @ServerExceptionMapper
    public Response unexpected(Throwable e, HttpHeaders headers) {
        if (DatabaseUnavailable.explains(e)) {
            // An outage, not a bug: the client is told to retry (with the same Idempotency-Key, for writes).
            LOG.warnf("request %s failed: the database is unavailable (%s)", requestId(headers), e.toString());
            return error(
                    ErrorCode.SERVICE_UNAVAILABLE,
                    "A Herald service is temporarily unavailable. Retry shortly.",
                    headers);
        }
        LOG.errorf(e, "request %s failed", requestId(headers));
        return error(ErrorCode.INTERNAL_ERROR, "Something went wrong on our side.", headers);
    }

    public static Response error(ErrorCode code, String message, HttpHeaders headers) {
        return Response.status(code.httpStatus())
                .type(MediaType.APPLICATION_JSON_TYPE)
                .entity(new ErrorEnvelope(new ApiError(code.code(), message, Map.of()), requestId(headers)))
                .build();
    }

    private static String requestId(HttpHeaders headers) {
        String id = headers == null ? null : headers.getHeaderString(RequestIds.HEADER);
        return id == null ? RequestIds.newRequestId() : id;
    }
}
