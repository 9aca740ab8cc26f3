<?php

use App\Http\Controllers\InvoiceController;

Route::get('/invoices/{invoice}', [InvoiceController::class, 'show'])->name('invoices.show');
