package form

// PropertyOrder lets the browser tests (package form_test) compare
// parameter order with the same reader the golden tests use.
var PropertyOrder = propertyOrder
