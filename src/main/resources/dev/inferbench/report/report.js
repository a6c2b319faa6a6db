// Sorting (click a header; numbers as numbers, empty cells last) and filtering (rows containing the typed text).
document.querySelectorAll("table.cells").forEach(function (table) {
  table.querySelectorAll("th").forEach(function (th, col) {
    th.addEventListener("click", function () {
      var asc = !th.classList.contains("asc");
      table.querySelectorAll("th").forEach(function (h) { h.classList.remove("asc", "desc"); });
      th.classList.add(asc ? "asc" : "desc");
      var body = table.tBodies[0];
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (a, b) {
        var x = a.cells[col].textContent, y = b.cells[col].textContent;
        var nx = parseFloat(x), ny = parseFloat(y);
        var c;
        if (x === "" || y === "") { c = (x === "") - (y === ""); return c; }
        c = !isNaN(nx) && !isNaN(ny) ? nx - ny : x.localeCompare(y);
        return asc ? c : -c;
      });
      rows.forEach(function (r) { body.appendChild(r); });
    });
  });
});
document.getElementById("filter").addEventListener("input", function (e) {
  var q = e.target.value.toLowerCase();
  document.querySelectorAll("table.cells tbody tr").forEach(function (r) {
    r.style.display = r.textContent.toLowerCase().indexOf(q) >= 0 ? "" : "none";
  });
});
document.body.setAttribute("data-ready", "true");
