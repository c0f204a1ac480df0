// The API reference page (GET /api/v1/docs): Swagger UI on the served document, then the error catalogue made from
// the document's error schemas. A script file of its own, since the page's Content-Security-Policy allows no inline
// script.
"use strict";

// The document's codes in its own order (ApiError.code), each with the status and meaning its Error... schema gives
// ("HTTP 409 `conflict`: The resource's state ..."); a code without a schema of its own keeps empty cells.
function errorCatalogue(document) {
  const schemas = (document.components && document.components.schemas) || {};
  const described = {};
  Object.keys(schemas).forEach((name) => {
    const schema = schemas[name];
    const error = schema.properties && schema.properties.error;
    const code = error && error.properties && error.properties.code && error.properties.code.const;
    const match = /^HTTP (\d{3}) `[a-z_]+`: (.*)$/s.exec(schema.description || "");
    if (code && match) {
      described[code] = { status: match[1], meaning: match[2] };
    }
  });
  const codes = schemas.ApiError.properties.code.enum;
  return codes.map((code) => Object.assign({ code: code, status: "", meaning: "" }, described[code]));
}

function showErrorCatalogue(document) {
  const body = window.document.getElementById("error-codes");
  errorCatalogue(document).forEach((entry) => {
    const row = body.insertRow();
    row.id = "error-" + entry.code;
    const code = window.document.createElement("code");
    code.textContent = entry.code;
    row.insertCell().appendChild(code);
    row.insertCell().textContent = entry.status;
    row.insertCell().textContent = entry.meaning;
  });
  window.document.getElementById("error-catalogue").hidden = false;
}

window.addEventListener("load", () => {
  const ui = SwaggerUIBundle({
    url: "/api/v1/openapi.json",
    dom_id: "#swagger-ui",
    deepLinking: true,
    // The public validator badge would fetch from another host (the CSP refuses it anyway).
    validatorUrl: null,
    docExpansion: "list",
    defaultModelsExpandDepth: 0,
    onComplete: () => showErrorCatalogue(ui.specSelectors.specJson().toJS()),
  });
});
