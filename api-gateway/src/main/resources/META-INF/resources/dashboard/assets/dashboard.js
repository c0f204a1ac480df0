// Herald dashboard: small progressive enhancements only; every page works without this script.
document.addEventListener("click", function (event) {
  var button = event.target.closest("button[data-copy]");
  if (!button) return;
  var source = document.getElementById(button.getAttribute("data-copy"));
  if (!source || !navigator.clipboard) return;
  navigator.clipboard.writeText(source.textContent.trim()).then(function () {
    button.textContent = "Copied";
  });
});
document.querySelectorAll("button[data-copy]").forEach(function (button) {
  button.hidden = false;
});
// Branding: the preview follows the form as it is typed (name, accent, footer links) and states the accent's contrast
// against white, as PUT /branding measures it (WCAG 2.2; at least 4.5:1).
(function () {
  var form = document.getElementById("branding-form");
  var preview = document.getElementById("branding-preview");
  if (!form || !preview) return;
  function field(name) { return form.elements[name]; }
  function channel(value) {
    var c = value / 255;
    return c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
  }
  function contrast(hex) {
    var rgb = parseInt(hex.slice(1), 16);
    var luminance = 0.2126 * channel((rgb >> 16) & 255) + 0.7152 * channel((rgb >> 8) & 255) + 0.0722 * channel(rgb & 255);
    return 1.05 / (luminance + 0.05);
  }
  function show(id, visible) { document.getElementById(id).hidden = !visible; }
  function update() {
    var name = field("display_name").value.trim();
    document.getElementById("preview-name").textContent = name;
    show("preview-header", name !== "" || document.getElementById("preview-logo") !== null);
    var support = field("support_url").value.trim() !== "";
    var privacy = field("privacy_url").value.trim() !== "";
    show("preview-support", support);
    show("preview-privacy", privacy);
    show("preview-footer", support || privacy);
    var accent = field("accent_color").value.trim();
    var note = document.getElementById("branding-contrast");
    if (/^#[0-9a-fA-F]{6}$/.test(accent)) {
      var ratio = Math.floor(contrast(accent) * 100) / 100;
      preview.style.setProperty("--accent", accent);
      note.textContent = "Contrast against white: " + ratio.toFixed(2) + ":1" + (ratio < 4.5 ? " (too light: at least 4.5:1 is needed)" : ".");
    } else {
      preview.style.removeProperty("--accent");
      note.textContent = "";
    }
  }
  form.addEventListener("input", update);
  update();
})();
