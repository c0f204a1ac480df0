package dev.herald.common.rest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.herald.common.api.ApiException;
import dev.herald.common.api.FieldError;
import dev.herald.common.validation.StorableText;
import jakarta.ws.rs.ext.Provider;
import jakarta.ws.rs.ext.ReaderInterceptor;
import jakarta.ws.rs.ext.ReaderInterceptorContext;
import java.io.IOException;
import java.util.List;

/**
 * Refuses a JSON body any of whose strings PostgreSQL cannot store as sent ({@link StorableText}) with
 * {@code 422 validation_failed} naming each such field, before the resource reads it. Checked once here for every
 * body rather than field by field in each resource, so no stored string is missed; a body with such a character
 * is answered with these fields only, and its other problems are reported once they are fixed.
 */
@Provider
public class StorableJsonBodyInterceptor implements ReaderInterceptor {
    @Override
    public Object aroundReadFrom(ReaderInterceptorContext context) throws IOException {
        Object body = context.proceed();
        if (body instanceof JsonNode json) {
            List<FieldError> errors = StorableText.unstorableFields(json);
            if (!errors.isEmpty()) {
                throw ApiException.validationFailed(errors);
            }
        }
        return body;
    }
}
