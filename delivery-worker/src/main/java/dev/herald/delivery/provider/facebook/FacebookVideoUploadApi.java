package dev.herald.delivery.provider.facebook;

import dev.herald.common.net.PlatformAnswerFilter;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.rest.client.annotation.RegisterProvider;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/**
 * Meta's upload host for a Reel's or a video story's session ({@code https://rupload.facebook.com/video-upload/v24.0},
 * the {@code upload_url} the session's start answers), as a hosted-file upload: Facebook fetches the video from
 * {@code file_url} itself; Herald moves no bytes. {@code {"success": true}}.
 */
@RegisterRestClient(configKey = "facebook-upload")
@RegisterProvider(PlatformAnswerFilter.class)
@Produces(MediaType.APPLICATION_JSON)
public interface FacebookVideoUploadApi {

    /** {@code authorization} is {@code OAuth <page token>}, as the upload host takes it. */
    @POST
    @Path("/{videoId}")
    Uni<Response> uploadHosted(
            @HeaderParam("Authorization") String authorization,
            @PathParam("videoId") String videoId,
            @HeaderParam("file_url") String fileUrl);
}
