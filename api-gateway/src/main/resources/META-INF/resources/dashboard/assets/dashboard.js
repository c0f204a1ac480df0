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
