<?php

namespace App\Models;

use Illuminate\Database\Eloquent\Model;

class Invoice extends Model
{
    protected $casts = [
        'total_cents' => 'integer',
        'issued_at' => 'immutable_datetime',
    ];

    public function customer()
    {
        return $this->belongsTo(Customer::class);
    }
}
