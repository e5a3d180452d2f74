// Async boundary: the shared singletons (React, router, query, toast) are negotiated before any app code runs.
void import('./bootstrap');
