<?php

namespace App\Http\Controllers;

use App\Models\Invoice;

class InvoiceController extends BaseController
{
    public function show(Invoice $invoice): array
    {
        return $this->ok(['total_cents' => $invoice->total_cents]);
    }
}
