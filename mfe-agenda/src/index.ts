// Module Federation needs an async boundary before any shared module (React, the router…) is used.
void import('./bootstrap');
