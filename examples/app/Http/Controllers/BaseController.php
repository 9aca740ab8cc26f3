<?php

namespace App\Http\Controllers;

abstract class BaseController
{
    protected function ok(array $data): array
    {
        return ['data' => $data];
    }
}
