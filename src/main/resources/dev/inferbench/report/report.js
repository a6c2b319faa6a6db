// Sorting (click a column's header; numbers as numbers, empty cells last), filtering (rows containing the typed
// text) and folding (a checkbox per group of columns adds or removes the table's fold-<group> class, which report.css
// turns into hidden cells).
document.querySelectorAll("table.cells").forEach(function (table) {
  var header = table.tHead.rows[table.tHead.rows.length - 1];
  Array.prototype.forEach.call(header.cells, function (th, col) {
    th.addEventListener("click", function () {
      var asc = !th.classList.contains("asc");
      Array.prototype.forEach.call(header.cells, function (h) { h.classList.remove("asc", "desc"); });
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
document.querySelectorAll("input[data-group]").forEach(function (box) {
  box.addEventListener("change", function () {
    document.getElementById(box.getAttribute("data-table"))
      .classList.toggle("fold-" + box.getAttribute("data-group"), !box.checked);
  });
});
document.getElementById("filter").addEventListener("input", function (e) {
  var q = e.target.value.toLowerCase();
  document.querySelectorAll("table.cells tbody tr").forEach(function (r) {
    r.style.display = r.textContent.toLowerCase().indexOf(q) >= 0 ? "" : "none";
  });
});
document.body.setAttribute("data-ready", "true");
