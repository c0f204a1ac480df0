package dev.herald.delivery.provider.linkedin;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.herald.delivery.support.DeliveryTestSupport;
import org.junit.jupiter.api.Test;

class LinkedInMediaUploadTest {

    @Test
    void uploadInstructionsMustCoverTheFileInOrder() {
        JsonNode gap = DeliveryTestSupport.JSON
                .createArrayNode()
                .add(DeliveryTestSupport.JSON
                        .createObjectNode()
                        .put("uploadUrl", "u1")
                        .put("firstByte", 0)
                        .put("lastByte", 9))
                .add(DeliveryTestSupport.JSON
                        .createObjectNode()
                        .put("uploadUrl", "u2")
                        .put("firstByte", 11)
                        .put("lastByte", 19));
        assertThat(LinkedInMediaUpload.parts(gap, 20)).isNull();
        JsonNode shuffled = DeliveryTestSupport.JSON
                .createArrayNode()
                .add(DeliveryTestSupport.JSON
                        .createObjectNode()
                        .put("uploadUrl", "u2")
                        .put("firstByte", 10)
                        .put("lastByte", 19))
                .add(DeliveryTestSupport.JSON
                        .createObjectNode()
                        .put("uploadUrl", "u1")
                        .put("firstByte", 0)
                        .put("lastByte", 9));
        assertThat(LinkedInMediaUpload.parts(shuffled, 20))
                .extracting(LinkedInMediaUpload.VideoPart::uploadUrl)
                .containsExactly("u1", "u2");
        assertThat(LinkedInMediaUpload.parts(shuffled, 21)).isNull();
    }
}
